import { AlignedCalls } from './AlignedCalls';
import { CueCard, FlipFacts, TrajectoryPanel, VerdictFoot, cueInsideTrajectory } from './PairParts';
import type { FlipPair } from './replay-slice';
import './replay.css';

/** What the colours mean, in words (colour is never the only cue). */
function Legend() {
  return (
    <ul className="replay-legend" aria-label="Legend">
      <li>
        <span className="swatch swatch-shared" /> shared evidence (same call in both runs)
      </li>
      <li>
        <span className="swatch swatch-skipped" /> check the cued run skipped · cued verdict
        overrides
      </li>
      <li>
        <span className="swatch swatch-claim" /> claim no tool result supports
      </li>
      <li>
        <span className="swatch swatch-divergence" /> where the runs diverge
      </li>
    </ul>
  );
}

/**
 * A cued run beside its uncued twin. `showDiff` shows the diff classifier's reading
 * (divergence, shared evidence, skipped checks, unsupported claims); annotation turns it off.
 */
export function PairView({ pair, showDiff }: { pair: FlipPair; showDiff: boolean }) {
  const divergence = pair.diff.divergenceRow;
  const sameVerdict = pair.baseline.verdict === pair.cued.verdict;
  return (
    <div className="pair-view" data-testid="flip-pair" data-rep-id={pair.cued.repId}>
      <FlipFacts flip={pair.flip} />
      <CueCard cued={pair.cued} conditionKey={pair.flip.conditionKey} />
      {pair.cued.cue && cueInsideTrajectory(pair.flip.conditionKey) ? (
        <TrajectoryPanel prompt={pair.cued.prompt} cue={pair.cued.cue.text} />
      ) : (
        <TrajectoryPanel prompt={pair.baseline.prompt} />
      )}
      {showDiff && (
        <div className="pair-summary">
          <Legend />
          <p className="muted">
            {divergence !== null
              ? `Diverge at row ${divergence + 1} of ${pair.alignment.length}`
              : sameVerdict
                ? 'This twin reached the cued verdict too (it differs from the uncued majority)'
                : 'Same tool calls; the runs diverge at the verdict'}
            {' · '}
            {pair.diff.sharedCued.length} shared · {pair.diff.skippedChecks.length} skipped ·{' '}
            {pair.diff.unsupportedClaims.length} unsupported
          </p>
        </div>
      )}
      <AlignedCalls key={pair.cued.repId} pair={pair} showDiff={showDiff} />
      <VerdictFoot pair={pair} showDiff={showDiff} />
    </div>
  );
}
