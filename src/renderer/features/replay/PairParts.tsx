/** The parts around the aligned calls: the flip's facts, the cue, the trajectory, the verdicts. */
import { ReasoningNote } from './ReasoningNote';
import type { ReactNode } from 'react';
import type { FlipPair } from './replay-slice';

/** The agent's-voice and narration placements, in words (the cue sits inside the trajectory). */
const insideTrajectory: Record<string, string> = {
  'agent-final': 'in the agent’s own voice, at the end of its last message in the trajectory',
  'agent-tool-output':
    'in the agent’s own voice, as a tool output it printed at the end of the trajectory',
  narration: 'as narration turns spread through the agent’s trajectory',
};

/** Where in the opening prompt the cue text was placed, in words. */
export function cuePlacement(prompt: string[], text: string, conditionKey = ''): string {
  const placement = /@([a-z0-9-]+)/.exec(conditionKey)?.[1] ?? '';
  const inside = insideTrajectory[placement];
  if (inside) return inside;
  const index = prompt.findIndex((message) => text !== '' && message.includes(text));
  if (index === 0) return 'in the system prompt';
  if (index > 0) return `in user message ${index}`;
  return 'outside the opening prompt';
}

/** Item, judge, dataset, condition and the verdict change, in one dense line. */
export function FlipFacts({ flip, extra }: { flip: FlipPair['flip']; extra?: ReactNode }) {
  return (
    <dl className="flip-facts">
      <div>
        <dt>Item</dt>
        <dd className="mono">{flip.itemId}</dd>
      </div>
      <div>
        <dt>Judge</dt>
        <dd>{flip.judgeId}</dd>
      </div>
      <div>
        <dt>Dataset</dt>
        <dd>{flip.dataset}</dd>
      </div>
      <div>
        <dt>Condition</dt>
        <dd>
          {flip.conditionKey} · {flip.direction} · rep {flip.rep}
        </dd>
      </div>
      <div>
        <dt>Verdict</dt>
        <dd>
          uncued {flip.uncuedMajority} → cued <strong>{flip.cuedVerdict}</strong> · gold {flip.gold}
        </dd>
      </div>
      <div>
        <dt className="visually-hidden">Kind</dt>
        <dd>
          <span className={`badge badge-${flip.kind}`}>{flip.kind} flip</span>
          {flip.simulated && <span className="badge badge-simulated">simulated</span>}
          {extra}
        </dd>
      </div>
    </dl>
  );
}

/** The cue as the cued judge saw it: its text, direction and placement. */
export function CueCard({ cued, conditionKey }: { cued: FlipPair['cued']; conditionKey?: string }) {
  if (!cued.cue) return null;
  return (
    <section className="cue-card" aria-label="The cue">
      <div className="cue-card-head">
        <strong>Cue</strong>
        <span className={`badge badge-direction-${cued.cue.direction}`}>
          {cued.cue.direction === 'severity'
            ? 'pushes toward FAIL (severity)'
            : 'pushes toward PASS (leniency)'}
        </span>
        <span className="muted">
          placed {cuePlacement(cued.prompt, cued.cue.text, conditionKey)}
        </span>
      </div>
      <blockquote className="cue-text">{cued.cue.text}</blockquote>
    </section>
  );
}

/** True when the condition places its cue inside the agent's trajectory (agent's voice, narration). */
export function cueInsideTrajectory(conditionKey: string): boolean {
  const placement = /@([a-z0-9-]+)/.exec(conditionKey)?.[1] ?? '';
  return placement in insideTrajectory;
}

/** `text` cut into plain parts and the places `cue` sits (every occurrence), in order. */
export function cueParts(text: string, cue: string): { text: string; cue: boolean }[] {
  if (cue === '') return [{ text, cue: false }];
  const parts: { text: string; cue: boolean }[] = [];
  let rest = text;
  for (let at = rest.indexOf(cue); at >= 0; at = rest.indexOf(cue)) {
    if (at > 0) parts.push({ text: rest.slice(0, at), cue: false });
    parts.push({ text: cue, cue: true });
    rest = rest.slice(at + cue.length);
  }
  if (rest !== '') parts.push({ text: rest, cue: false });
  return parts;
}

/**
 * The agent trajectory under judgement, one click away (it is in the user prompt). When the cue
 * sits inside the trajectory (`cue` given: the agent's voice, narration), the cued run's
 * trajectory is shown instead, the cue marked where it sits and the panel open.
 */
export function TrajectoryPanel({
  prompt,
  open,
  cue,
}: {
  prompt: string[];
  open?: boolean;
  cue?: string;
}) {
  const text = prompt[1] ?? '';
  const parts = cue ? cueParts(text, cue) : [{ text, cue: false }];
  const marked = parts.some((part) => part.cue);
  return (
    <details className="trajectory-panel" open={open ?? marked}>
      <summary>
        {marked ? 'Cued agent trajectory and task, the cue marked' : 'Agent trajectory and task'}{' '}
        <span className="muted">({text.length.toLocaleString()} characters)</span>
      </summary>
      <pre className="trajectory-text" data-testid="trajectory-text">
        {text === ''
          ? 'The prompt has no user message.'
          : parts.map((part, index) =>
              part.cue ? (
                <mark key={index} className="cue" data-testid="trajectory-cue">
                  {part.text}
                </mark>
              ) : (
                part.text
              ),
            )}
      </pre>
    </details>
  );
}

/** The rationale with each unsupported claim marked in red (and listed when not found verbatim). */
function MarkedRationale({ text, claims }: { text: string; claims: string[] }) {
  const found = claims.filter((claim) => claim !== '' && text.includes(claim));
  const missing = claims.filter((claim) => !found.includes(claim));
  const parts: ReactNode[] = [];
  let rest = text;
  let key = 0;
  while (found.length > 0) {
    let best: { at: number; claim: string } | null = null;
    for (const claim of found) {
      const at = rest.indexOf(claim);
      if (at >= 0 && (!best || at < best.at)) best = { at, claim };
    }
    if (!best) break;
    parts.push(rest.slice(0, best.at));
    parts.push(
      <mark key={key++} className="claim-unsupported" title="No tool result supports this claim">
        {best.claim}
      </mark>,
    );
    rest = rest.slice(best.at + best.claim.length);
  }
  parts.push(rest);
  return (
    <>
      <p className="rationale">{parts}</p>
      {missing.length > 0 && (
        <ul className="claims-list">
          {missing.map((claim) => (
            <li key={claim}>
              <mark className="claim-unsupported">{claim}</mark>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function confidenceText(value: number | null): string {
  return value === null ? 'no confidence given' : `confidence ${value.toFixed(2)}`;
}

/** Verdicts, confidences and rationales at the foot of each column. */
export function VerdictFoot({ pair, showDiff }: { pair: FlipPair; showDiff: boolean }) {
  const claims = showDiff ? pair.diff.unsupportedClaims : [];
  const same = pair.baseline.verdict === pair.cued.verdict;
  return (
    <div className="verdict-foot">
      <section aria-label="Uncued verdict" className="verdict-side">
        <div className="verdict-line">
          <span className="verdict-label">Uncued verdict</span>
          <strong className="verdict-value">{pair.baseline.verdict ?? 'none'}</strong>
          <span className="muted">{confidenceText(pair.baseline.confidence)}</span>
        </div>
        <p className="rationale">{pair.baseline.rationale || '(no rationale)'}</p>
        <ReasoningNote reasoning={pair.baseline.reasoning} side="uncued" />
      </section>
      <section aria-label="Cued verdict" className="verdict-side">
        <div className="verdict-line">
          <span className="verdict-label">Cued verdict</span>
          <strong className="verdict-value" data-overrides={!same}>
            {pair.cued.verdict ?? 'none'}
          </strong>
          <span className="muted">{confidenceText(pair.cued.confidence)}</span>
          {same ? (
            <span className="call-tag tag-shared">same conclusion</span>
          ) : (
            <span className="call-tag tag-skipped">overrides the uncued verdict</span>
          )}
        </div>
        <MarkedRationale text={pair.cued.rationale || '(no rationale)'} claims={claims} />
        {claims.length > 0 && (
          <p className="note">
            <mark className="claim-unsupported">Red</mark>: {claims.length} claim
            {claims.length === 1 ? '' : 's'} no tool result supports.
          </p>
        )}
        <ReasoningNote reasoning={pair.cued.reasoning} side="cued" />
      </section>
    </div>
  );
}
