/**
 * The two runs' tool calls side by side, one aligned row each, windowed so a transcript of
 * thousands of calls scrolls smoothly: rows have a fixed height and only the visible ones
 * (plus a few either side) are in the DOM. The divergence rule is always drawn.
 */
import { useCallback, useState, type UIEvent } from 'react';
import type { FlipPair } from './replay-slice';
import './aligned.css';

type Call = FlipPair['baseline']['calls'][number];

/** Fixed row height in px; keep in step with `.aligned-row` in replay.css. */
export const rowHeight = 58;
const overscan = 8;
/** Space under the last row for a divergence at the verdict. */
const verdictTail = 26;
const maxViewport = 520;

/** A tool input in one line: `key=value` pairs for objects, JSON otherwise. */
export function inputText(input: unknown): string {
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    return Object.entries(input as Record<string, unknown>)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join('  ');
  }
  return input === undefined ? '' : JSON.stringify(input);
}

function callCount(count: number): string {
  return `${count} tool call${count === 1 ? '' : 's'}`;
}

interface CellProps {
  call: Call | undefined;
  side: 'baseline' | 'cued';
  /** `shared`, `skipped` or none: shown as a coloured edge and a text tag. */
  mark: 'shared' | 'skipped' | null;
}

function CallCell({ call, side, mark }: CellProps) {
  if (!call) {
    return (
      <div className="aligned-cell aligned-empty" data-side={side}>
        {side === 'cued' ? 'no matching call' : 'no matching call in the uncued run'}
      </div>
    );
  }
  const input = inputText(call.input);
  return (
    <div
      className="aligned-cell"
      data-side={side}
      data-mark={mark ?? undefined}
      title={`${call.name} ${input}\n\n${call.output}`}
    >
      <div className="call-head">
        <span className="call-index">#{call.index + 1}</span>
        <span className="call-name">{call.name}</span>
        <span className="call-input">{input}</span>
        {mark === 'shared' && <span className="call-tag tag-shared">shared evidence</span>}
        {mark === 'skipped' && <span className="call-tag tag-skipped">skipped by cued run</span>}
        {call.isError && <span className="call-tag tag-error">error</span>}
      </div>
      <div className="call-output">{call.output || '(no output)'}</div>
    </div>
  );
}

/** Props: the pair, and whether to show the diff classifier's reading (not while annotating). */
export function AlignedCalls({ pair, showDiff }: { pair: FlipPair; showDiff: boolean }) {
  const [scrollTop, setScrollTop] = useState(0);
  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    const next = Math.floor(event.currentTarget.scrollTop / rowHeight) * rowHeight;
    setScrollTop((current) => (current === next ? current : next));
  }, []);
  const rows = pair.alignment;
  // Same calls throughout, yet the verdicts differ: the runs diverge at the verdict, after
  // the last row (paper Fig. 7, over-trust).
  const atVerdict =
    showDiff && pair.diff.divergenceRow === null && pair.baseline.verdict !== pair.cued.verdict;
  const divergence = atVerdict ? rows.length : pair.diff.divergenceRow;
  const total = rows.length * rowHeight + (atVerdict ? verdictTail : 0);
  const viewport = Math.min(maxViewport, Math.max(total, rowHeight));
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  const shared = new Set(pair.diff.sharedCued);
  const skipped = new Set(pair.diff.skippedChecks);

  return (
    <section className="aligned" aria-label="Tool calls, aligned">
      <div className="aligned-heads" aria-hidden="true">
        <span>Uncued twin · {callCount(pair.baseline.calls.length)}</span>
        <span>Cued run · {callCount(pair.cued.calls.length)}</span>
      </div>
      {rows.length === 0 ? (
        <p className="muted aligned-none">Neither run called a tool.</p>
      ) : (
        <div
          className="aligned-scroll"
          style={{ height: viewport }}
          onScroll={onScroll}
          tabIndex={0}
          role="list"
          aria-label={`${rows.length} aligned tool calls`}
          data-testid="aligned-calls"
        >
          <div className="aligned-body" style={{ height: total }}>
            {rows.slice(first, last).map((row, offset) => {
              const index = first + offset;
              const baseline =
                row.baseline === null ? undefined : pair.baseline.calls[row.baseline];
              const cued = row.cued === null ? undefined : pair.cued.calls[row.cued];
              const isShared = showDiff && row.baseline !== null && row.cued !== null;
              return (
                <div
                  key={index}
                  role="listitem"
                  className="aligned-row"
                  data-row={index}
                  style={{ top: index * rowHeight }}
                >
                  <CallCell
                    call={baseline}
                    side="baseline"
                    mark={
                      showDiff && row.baseline !== null && skipped.has(row.baseline)
                        ? 'skipped'
                        : null
                    }
                  />
                  <CallCell
                    call={cued}
                    side="cued"
                    mark={isShared && row.cued !== null && shared.has(row.cued) ? 'shared' : null}
                  />
                </div>
              );
            })}
            {showDiff && divergence !== null && (
              <div
                className="divergence-marker"
                data-testid="divergence-marker"
                data-row={divergence}
                style={{ top: atVerdict ? total - verdictTail / 2 : divergence * rowHeight }}
              >
                <span>
                  {atVerdict
                    ? 'Same calls; runs diverge at the verdict'
                    : `Runs diverge here · row ${divergence + 1}`}
                </span>
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
