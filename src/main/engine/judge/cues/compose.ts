/**
 * Turns a cue spec into the sentence a cued rep injects (§3.1, §3.2, App. B, App. E).
 *
 * Axis cells that are exactly a paper wording use it verbatim (or as the paper module expands
 * it): on task readouts, strong / belief / declarative / domain expert / definitely is the §3.1
 * cue (and its §3.1 success mirror), and weak / belief / declarative / unattributed / might is
 * the App. E weak cue; on error attribution, strong / belief / declarative / automated checker /
 * <decisiveness> is Table 4's cell. Table 2 and 3 wordings carry no decisiveness word (and Table 4
 * shows the bare and "definitely" wordings differ in effect), so they are no cell of the grid;
 * use their presets. Every other cell is composed by axes.ts.
 *
 * Cells that are identical by design: 'null-source' depends only on the source; 'placebo' only
 * on the word count of the strong cell it replaces. Neither carries verdict information.
 */
import {
  completeCueAxes,
  type CompleteCueAxes,
  type CueDirection,
  type CueSource,
  type CueSpec,
} from '../../../../shared/cue-spec';
import { TABLE_2_SOURCE } from '../../paper';
import type { Readout } from '../../contract';
import { SOURCE_NAMES, composeErrorCue, composeTaskCue } from './axes';
import type { CueFamily } from '../../../../shared/cue-family';
import { findCueFamily } from './families/registry';
import { familyTemplates } from './families/render';
import { nullSourceText, placeboText, wordCount } from './placebo';
import { findCuePreset, type CueProvenance, type CueWording } from './presets';

/** What a cue is rendered for. */
export interface CueContext {
  readout: Readout;
  /** Fills `{cat}` with this one category (id or name); default: all categories, as `{cats}`. */
  category?: string;
  /** Fills `[source]` (Table 2); default 'domain expert' = Table 2's "a senior domain expert". */
  source?: CueSource;
  /** A family cue's family (a study's own copy); default: the registry's. */
  family?: CueFamily;
  /** The placement name, checked against a family's allowed placements. */
  placement?: string;
}

/** A rendered cue, ready for a PlacedCue. */
export interface RenderedCue {
  text: string;
  /** A narration family's turns; `text` then joins them for records. */
  texts?: string[];
  label: string;
  provenance: CueProvenance;
  citation?: string;
}

/**
 * Joins category names for `{cats}`. The paper enumerates them "in full" (App. B) but prints no
 * separator, so CueLab uses ", " with a final " and " (no serial comma): "A, B and C".
 */
export function enumerateCategories(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/**
 * Fills `{cats}`, `{cat}` and `[source]`. `{cat}` / `{cats}` need an error-attribution readout;
 * `[source]` at the start of the text is capitalised (the paper does not say how it is cased).
 */
export function fillCuePlaceholders(template: string, context: CueContext, what: string): string {
  let text = template;
  if (/\{cats?\}/.test(text)) {
    const { readout } = context;
    if (readout.kind !== 'error_attribution') {
      throw new Error(
        `${what} names error categories ({cat} / {cats}) and needs an error-attribution readout; ` +
          `the readout "${readout.dimension}" is ${readout.kind}.`,
      );
    }
    const categories = readout.taxonomy.categories;
    if (categories.length === 0) {
      throw new Error(`Taxonomy "${readout.taxonomy.id}" has no categories to fill ${what}.`);
    }
    const all = enumerateCategories(categories.map((category) => category.name));
    let one = all;
    if (context.category !== undefined) {
      const found = categories.find(
        (c) => c.id === context.category || c.name === context.category,
      );
      if (!found) {
        throw new Error(
          `Category "${context.category}" is not in taxonomy "${readout.taxonomy.id}" ` +
            `(${categories.map((c) => c.id).join(', ')}).`,
        );
      }
      one = found.name;
    }
    text = text.replaceAll('{cats}', all).replaceAll('{cat}', one);
  }
  if (text.includes('[source]')) {
    const source = context.source ?? 'domain expert';
    const name = source === 'domain expert' ? TABLE_2_SOURCE.text : SOURCE_NAMES[source];
    if (name === null) {
      throw new Error(`${what} has a [source] placeholder; an unattributed source cannot fill it.`);
    }
    const startsWithSource = text.startsWith('[source]');
    text = text.replaceAll('[source]', name);
    if (startsWithSource) text = text.charAt(0).toUpperCase() + text.slice(1);
  }
  return text;
}

function fromWording(wording: CueWording, label: string, context: CueContext): RenderedCue {
  return {
    text: fillCuePlaceholders(wording.text, context, `Cue "${label}"`),
    label,
    provenance: wording.provenance,
    citation: wording.citation,
  };
}

function presetWording(id: string, direction: CueDirection): CueWording {
  const preset = findCuePreset(id);
  const wording = direction === 'severity' ? preset.severity : preset.leniency;
  if (!wording) throw new Error(`Cue preset "${id}" has no ${direction} wording.`);
  return wording;
}

/** The preset whose wording is exactly this cell, or null (see the file comment). */
export function paperCellPreset(axes: CompleteCueAxes, readout: Readout): string | null {
  const { strength, framing, form, source, decisiveness } = axes;
  if (framing !== 'belief' || form !== 'declarative') return null;
  if (readout.kind === 'error_attribution') {
    return strength === 'strong' && source === 'automated checker'
      ? `table4-${decisiveness}`
      : null;
  }
  if (strength === 'strong' && source === 'domain expert' && decisiveness === 'definitely') {
    return 'strong';
  }
  if (strength === 'weak' && source === 'unattributed' && decisiveness === 'might') return 'weak';
  return null;
}

/** A short description of a cell, for records. */
export function axesLabel(axes: CompleteCueAxes, direction: CueDirection): string {
  const { strength, framing, form, source, decisiveness } = axes;
  return `${strength} · ${framing} · ${form} · ${source} · ${decisiveness} · ${direction}`;
}

function renderAxes(
  axes: CompleteCueAxes,
  direction: CueDirection,
  context: CueContext,
): RenderedCue {
  const label = axesLabel(axes, direction);
  if (axes.strength === 'null-source') {
    return { text: nullSourceText(axes.source), label, provenance: 'cuelab', citation: '§3.2' };
  }
  if (axes.strength === 'placebo') {
    const replaced = renderAxes({ ...axes, strength: 'strong' }, direction, context);
    const text = placeboText(wordCount(replaced.text));
    return { text, label, provenance: 'cuelab', citation: '§3.2' };
  }
  const preset = paperCellPreset(axes, context.readout);
  if (preset !== null) {
    return fromWording(presetWording(preset, direction), `${label} (preset ${preset})`, context);
  }
  const template =
    context.readout.kind === 'error_attribution'
      ? composeErrorCue(axes, direction)
      : composeTaskCue(axes, direction);
  const text = fillCuePlaceholders(template, context, `Cue "${label}"`);
  return { text, label, provenance: 'cuelab', citation: '§3.2' };
}

/**
 * Renders a cue for one direction and readout. Throws a descriptive Error for an unknown preset,
 * a direction the spec has no wording for, `{cat}` on a task readout, an unknown category, or an
 * unattributed `[source]`.
 */
export function renderCue(
  spec: CueSpec,
  direction: CueDirection,
  context: CueContext,
): RenderedCue {
  switch (spec.kind) {
    case 'preset': {
      const preset = findCuePreset(spec.preset);
      return fromWording(presetWording(spec.preset, direction), preset.label, context);
    }
    case 'axes':
      return renderAxes(completeCueAxes(spec.axes), direction, context);
    case 'custom': {
      const text = direction === 'severity' ? spec.severity : spec.leniency;
      if (text === undefined) {
        throw new Error('This custom cue has no leniency text; add `leniency` to run it that way.');
      }
      return {
        text: fillCuePlaceholders(text, context, 'The custom cue'),
        label: `custom cue · ${direction}`,
        provenance: 'custom',
      };
    }
    case 'family': {
      const family = context.family ?? findCueFamily(spec.family);
      if (family.id !== spec.family)
        throw new Error(`The cue names family "${spec.family}" but was given "${family.id}".`);
      const picked = familyTemplates(family, spec, direction, context.placement);
      const texts = picked.texts.map((template) =>
        fillCuePlaceholders(template, context, `Cue "${picked.label}"`),
      );
      return {
        text: texts.join('\n'),
        ...(texts.length > 1 || family.form === 'narration' ? { texts } : {}),
        label: picked.label,
        provenance: 'family',
        citation: family.source,
      };
    }
  }
}
