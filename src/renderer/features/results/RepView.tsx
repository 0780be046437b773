/**
 * One rep's transcript, or any two reps side by side with their tool calls aligned as in Replay
 * (loadRepPair): prompt, calls with their outputs, verdict and rationale.
 */
import { useEffect, useState } from 'react';
import type { LabResponse } from '../../../shared/lab-api';
import { labClientFor } from '../../lib/engine-client';
import type { Loadable } from '../../lib/loadable';
import { useLab } from '../../store';
import { inputText } from '../replay/AlignedCalls';

type Pair = LabResponse<'loadRepPair'>;
/** A rep as the workbench listed it (names the sides). */
type ListedRep = LabResponse<'queryReps'>['rows'][number];
type Run = Pair['a'];
type Call = Run['calls'][number];

function CallBox({ call }: { call: Call | undefined }) {
  if (!call) return <div className="rep-call rep-call-none">no matching call</div>;
  return (
    <div className="rep-call" data-error={call.isError || undefined}>
      <div className="rep-call-head">
        <span className="call-index">#{call.index + 1}</span> <b>{call.name}</b>{' '}
        <span className="mono">{inputText(call.input)}</span>
      </div>
      <pre className="rep-call-output">{call.output}</pre>
    </div>
  );
}

function VerdictBox({ run, label, rep }: { run: Run; label: string; rep: ListedRep | undefined }) {
  return (
    <div className="rep-verdict" data-testid="rep-verdict">
      {rep && (
        <p className="rep-direction">
          {rep.itemId} · {rep.judgeId} · {rep.conditionKey} · rep {rep.rep}
        </p>
      )}
      <h3>
        {label}: verdict {run.verdict ?? 'none'}
        {run.cue && <span className="rep-direction"> cue {run.cue.direction}</span>}
      </h3>
      <p className="rep-rationale">{run.rationale || '(no rationale)'}</p>
    </div>
  );
}

/** The transcript (one id) or the side-by-side view (two ids), with a way back to the list. */
export function RepView({
  reps,
  simulated,
  onBack,
}: {
  reps: ListedRep[];
  simulated: boolean;
  onBack: () => void;
}) {
  const address = useLab((state) => state.address);
  const [pair, setPair] = useState<Loadable<Pair>>({ state: 'loading' });
  const [repA, repB] = reps.map((rep) => rep.repId);

  useEffect(() => {
    if (!address || !repA) return;
    let current = true;
    void labClientFor(address)
      .loadRepPair(repB ? { repA, repB } : { repA })
      .then((result) => {
        if (!current) return;
        setPair(
          result.ok
            ? { state: 'loaded', value: result.value }
            : { state: 'failed', error: result.error.message },
        );
      });
    return () => {
      current = false;
    };
  }, [address, repA, repB]);

  return (
    <div className="rep-view" data-testid={repB ? 'rep-side-by-side' : 'rep-transcript'}>
      <button type="button" className="button" onClick={onBack} autoFocus>
        Back to the reps
      </button>
      {simulated && (
        <p className="muted">
          <span className="badge badge-simulated">SIMULATED</span> synthetic-judge reps
        </p>
      )}
      {pair.state === 'loading' && <p className="muted">Loading…</p>}
      {pair.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not open the rep: {pair.error}
        </div>
      )}
      {pair.state === 'loaded' && <PairBody pair={pair.value} reps={reps} />}
    </div>
  );
}

function PairBody({ pair, reps }: { pair: Pair; reps: ListedRep[] }) {
  const { a, b } = pair;
  if (!b) {
    return (
      <div className="reps-scroll">
        <details className="rep-prompt">
          <summary>Prompt ({a.prompt.length} messages)</summary>
          {a.prompt.map((message, index) => (
            <pre key={index}>{message}</pre>
          ))}
        </details>
        {a.calls.map((call) => (
          <CallBox key={call.index} call={call} />
        ))}
        <VerdictBox run={a} label="Rep" rep={reps[0]} />
      </div>
    );
  }
  return (
    <div className="reps-scroll">
      <p className="muted">
        {pair.divergenceRow === null
          ? 'Same tool calls in both reps.'
          : `The reps diverge at row ${pair.divergenceRow + 1} of ${pair.alignment.length}.`}
      </p>
      <div className="rep-pair-grid">
        <VerdictBox run={a} label="A" rep={reps[0]} />
        <VerdictBox run={b} label="B" rep={reps[1]} />
        {pair.alignment.map((row, index) => (
          <div
            key={index}
            className="rep-pair-row"
            data-divergence={index === pair.divergenceRow || undefined}
          >
            <CallBox call={row.a === null ? undefined : a.calls[row.a]} />
            <CallBox call={row.b === null ? undefined : b.calls[row.b]} />
          </div>
        ))}
      </div>
    </div>
  );
}
