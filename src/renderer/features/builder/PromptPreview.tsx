import { useEffect, useRef, type ReactNode } from 'react';
import type { PromptPreview as Preview } from '../../../shared/lab-api';
import { Chip } from '../../components/Chip';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';
import { draftArms } from './builder-draft';
import { expandCuedConditions, uncuedKey, uncuedRepeatKey } from './conditions';
import './preview.css';

type Span = Preview['cueSpans'][number];

/** Text with the cue's spans wrapped in `<mark class="cue">` (offsets end-exclusive). */
export function highlightCue(text: string, spans: readonly Span[]): ReactNode[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: ReactNode[] = [];
  let at = 0;
  for (const span of sorted) {
    const start = Math.max(at, Math.min(span.start, text.length));
    const end = Math.max(start, Math.min(span.end, text.length));
    if (start > at) out.push(text.slice(at, start));
    if (end > start) {
      out.push(
        <mark key={start} className="cue">
          {text.slice(start, end)}
        </mark>,
      );
    }
    at = end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

function Block({ title, text, spans }: { title: string; text: string; spans: readonly Span[] }) {
  return (
    <section className="prompt-block" data-cued={spans.length > 0}>
      <h4 className="prompt-block-title">{title}</h4>
      <pre className="prompt-text">{highlightCue(text, spans)}</pre>
    </section>
  );
}

/** The exact prompt of one condition × item, with the cue marked where it landed. */
export function PromptPreview() {
  const preview = useLab((state) => state.preview);
  const draft = useLab((state) => state.draft);
  const suiteItems = useLab((state) => state.suiteItems);
  const registry = useLab((state) => state.cueFamilies);
  const openPreview = useLab((state) => state.openPreview);
  const closePreview = useLab((state) => state.closePreview);
  const bodyRef = useRef<HTMLDivElement>(null);
  const value = preview ? loadedValue(preview.result) : undefined;

  useEffect(() => {
    // Bring the first cue into view inside the panel, without scrolling the page.
    const body = bodyRef.current;
    const mark = body?.querySelector<HTMLElement>('mark.cue');
    if (!body || !mark) return;
    // Show the cued block from its title when the cue is near its start, else centre the cue.
    const block = mark.closest<HTMLElement>('.prompt-block');
    const blockTop = block ? block.offsetTop - 8 : 0;
    body.scrollTop =
      mark.offsetTop - blockTop < body.clientHeight * 0.6
        ? Math.max(0, blockTop)
        : Math.max(0, mark.offsetTop - body.clientHeight / 3);
  }, [value]);

  if (!preview) return null;
  const { target } = preview;
  const families = loadedValue(registry)?.families.map((entry) => entry.family);
  const cells = expandCuedConditions({ ...draftArms(draft), families });
  const items = loadedValue(suiteItems) ?? [];
  const itemChoices = draft.itemIds.length
    ? items.filter((item) => draft.itemIds.includes(item.id))
    : items;
  // The uncued repeat sends the control's very prompt again (only its draws differ).
  const cued = target.conditionKey !== uncuedKey && target.conditionKey !== uncuedRepeatKey;

  return (
    <section
      className="panel prompt-preview"
      data-testid="prompt-preview"
      aria-label="Prompt preview"
    >
      <header className="prompt-preview-header">
        <h2>Prompt preview</h2>
        <button type="button" className="button button-small" onClick={closePreview}>
          Close
        </button>
      </header>
      <div className="field-row">
        <label className="field field-grow">
          <span className="field-label">Condition</span>
          <select
            className="select mono"
            value={target.conditionKey}
            onChange={(event) => void openPreview({ ...target, conditionKey: event.target.value })}
          >
            <option value={uncuedKey}>uncued (control)</option>
            {draft.uncuedRepeat && (
              <option value={uncuedRepeatKey}>uncued repeat (same prompt as the control)</option>
            )}
            {cells.map((cell) => (
              <option key={cell.key} value={cell.key}>
                {cell.key}
                {cell.dropped ? ' (dropped)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-grow">
          <span className="field-label">Item</span>
          <select
            className="select mono"
            value={target.itemId}
            onChange={(event) => void openPreview({ ...target, itemId: event.target.value })}
          >
            {itemChoices.map((item) => (
              <option key={item.id} value={item.id}>
                {item.id} ({item.gold ?? 'unlabelled'})
              </option>
            ))}
          </select>
        </label>
        <div className="field">
          <span className="field-label">Direction</span>
          <div className="chip-row" role="radiogroup" aria-label="Cue direction">
            {(['severity', 'leniency'] as const).map((direction) => (
              <Chip
                key={direction}
                radio
                name="preview-direction"
                disabled={!cued}
                checked={cued && target.direction === direction}
                onChange={() => void openPreview({ ...target, direction })}
              >
                {direction}
              </Chip>
            ))}
          </div>
        </div>
      </div>

      {preview.result.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not build the prompt: {preview.result.error}
        </div>
      )}
      {preview.result.state === 'loading' && !value && (
        <p className="muted">Building the prompt…</p>
      )}
      {value && (
        <>
          <dl className="facts prompt-facts">
            <dt>Cue</dt>
            <dd>
              {value.cue
                ? `${value.cue.label} · ${value.cue.provenance}${value.cue.citation ? ` · ${value.cue.citation}` : ''}`
                : 'none (control)'}
            </dd>
            <dt>Tools</dt>
            <dd className="mono">{value.tools.map((tool) => tool.name).join(', ')}</dd>
            <dt>Environment</dt>
            <dd>
              {value.backend === 'docker' ? 'Docker container (fresh per rep)' : 'file snapshot'}
            </dd>
          </dl>
          <div className="prompt-body" ref={bodyRef}>
            <Block
              title="System"
              text={value.system}
              spans={value.cueSpans.filter((span) => span.location === 'system')}
            />
            {value.messages.map((message, index) => (
              <Block
                key={index}
                title={`${index + 1} · ${message.role}${message.toolName ? ` (${message.toolName})` : ''}`}
                text={message.content}
                spans={value.cueSpans.filter((span) => span.location === index)}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
