/**
 * Named cue wordings. Every paper text is taken from the paper module (../paper), never retyped;
 * mirrors the paper does not print are built from those constants by a stated rule and marked
 * 'cuelab'. Error-attribution presets keep the paper's `{cat}` / `{cats}` / `[source]`
 * placeholders; compose.ts fills them.
 */
import {
  AUTHORITY_TEMPLATES,
  DECISIVENESS_TEMPLATES,
  FRAMING_TEMPLATES,
  STRONG_LENIENCY_CUE,
  STRONG_LENIENCY_CUE_FIGURES,
  STRONG_SEVERITY_CUE,
  STRONG_SEVERITY_CUE_APP_E,
  STRONG_SEVERITY_CUE_FIGURES,
  WEAK_SEVERITY_CUE,
  type PaperCueTemplate,
  type PaperText,
} from '../../paper';
import { SEVERITY_CLAUSE, SUCCESS_CLAUSE } from './paper-fragments';

/**
 * Where a wording comes from: printed in the paper ('paper-verbatim', including texts the PDF
 * layout split), assembled from paper fragments by a rule the paper states ('paper-derived'),
 * CueLab's own text ('cuelab'), a researcher's free text ('custom'), or a cue family's template
 * ('family', cited by the family's source).
 */
export type CueProvenance = 'paper-verbatim' | 'paper-derived' | 'cuelab' | 'custom' | 'family';

/** One direction's wording of a preset. */
export interface CueWording {
  text: string;
  provenance: CueProvenance;
  /** Paper section, appendix, table or figure the wording (or its source text) comes from. */
  citation: string;
  /** How a derived or CueLab text was made. */
  note?: string;
}

/** A named cue. `readout` says which claim it makes: task success or error categories. */
export interface CuePreset {
  id: string;
  label: string;
  readout: 'task' | 'error-attribution';
  severity: CueWording;
  /** Null when neither the paper nor CueLab gives a success-direction wording. */
  leniency: CueWording | null;
}

function fromPaper(paper: PaperText, note?: string): CueWording {
  return {
    text: paper.text,
    provenance: paper.provenance.kind === 'derived' ? 'paper-derived' : 'paper-verbatim',
    citation: paper.source,
    ...(note === undefined ? {} : { note }),
  };
}

/** Applies `[from, to]` replacements; throws when one does not occur (a paper text changed). */
export function rewriteWording(text: string, replacements: readonly [string, string][]): string {
  let out = text;
  for (const [from, to] of replacements) {
    if (!out.includes(from)) throw new Error(`Cannot mirror "${text}": "${from}" not found.`);
    out = out.replaceAll(from, to);
  }
  return out;
}

/**
 * Error-attribution leniency mirror (CueLab, not in the paper): where the template asserts the
 * categories present, the mirror asserts none of them present ("exhibits none of {cats}"), and a
 * request to verify them becomes a request to verify their absence.
 */
export function errorAttributionMirror(template: string): string {
  const rules: [RegExp, string][] = [
    [/flagged \{cats\}/g, 'flagged none of {cats}'],
    [/these should be verified/g, 'this should be verified'],
    [/verify each of \{cats\}/g, 'verify the absence of each of {cats}'],
    [/(exhibits?|exhibiting) \{(cats?)\}/g, '$1 none of {$2}'],
  ];
  let out = template;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  if (out === template)
    throw new Error(`No error-attribution mirror rule applies to "${template}".`);
  return out;
}

function tablePreset(table: 2 | 3 | 4, template: PaperCueTemplate): CuePreset {
  const name = template.id.replace(/^(framing|authority|decisiveness)-/, '');
  // Cite the template's own table: the paper module files Table 4's expansions under 'Table 3'.
  const severity = template.expanded
    ? {
        ...fromPaper(template.expanded, 'The table’s "..." expanded as its caption defines it.'),
        citation: template.source,
      }
    : fromPaper(template);
  return {
    id: `table${table}-${name}`,
    label: `Table ${table}: ${template.label}`,
    readout: 'error-attribution',
    severity,
    leniency: {
      text: errorAttributionMirror(severity.text),
      provenance: 'cuelab',
      citation: template.source,
      note: 'CueLab mirror: asserts none of the categories present (the paper has no leniency template).',
    },
  };
}

/** Every preset, in the order the builder lists them. */
export const cuePresets: readonly CuePreset[] = [
  {
    id: 'strong',
    label: 'Strong cue (§3.1)',
    readout: 'task',
    severity: fromPaper(STRONG_SEVERITY_CUE),
    leniency: fromPaper(
      STRONG_LENIENCY_CUE,
      '§3.1 gives only the substituted clause "met ALL of the task’s requirements".',
    ),
  },
  {
    id: 'strong-senior',
    label: 'Strong cue, App. E wording ("senior domain expert")',
    readout: 'task',
    severity: fromPaper(STRONG_SEVERITY_CUE_APP_E),
    leniency: {
      text: rewriteWording(STRONG_SEVERITY_CUE_APP_E.text, [
        [SEVERITY_CLAUSE.toLowerCase(), SUCCESS_CLAUSE],
      ]),
      provenance: 'paper-derived',
      citation: 'App. E',
      note: '§3.1’s success substitution applied to App. E’s wording; all but the final period is printed in Fig. 10.',
    },
  },
  {
    id: 'strong-figures',
    label: 'Strong cue, worked-example wording (Figs. 10–12, 16)',
    readout: 'task',
    severity: fromPaper(STRONG_SEVERITY_CUE_FIGURES),
    leniency: fromPaper(STRONG_LENIENCY_CUE_FIGURES),
  },
  {
    id: 'weak',
    label: 'Weak cue (App. E)',
    readout: 'task',
    severity: fromPaper(WEAK_SEVERITY_CUE),
    leniency: {
      text: weakLeniencyText(),
      provenance: 'cuelab',
      citation: 'App. E',
      note: 'CueLab mirror of the App. E weak cue ("not" dropped); the paper prints no success-direction weak wording.',
    },
  },
  ...FRAMING_TEMPLATES.map((template) => tablePreset(2, template)),
  ...AUTHORITY_TEMPLATES.map((template) => tablePreset(3, template)),
  ...DECISIVENESS_TEMPLATES.map((template) => tablePreset(4, template)),
];

/** The weak cue's success mirror (CueLab): App. E's hedged remark with "not" dropped. */
export function weakLeniencyText(): string {
  return rewriteWording(WEAK_SEVERITY_CUE.text, [['might not have', 'might have']]);
}

/** Looks a preset up by id; throws, listing the known ids, when there is none. */
export function findCuePreset(id: string): CuePreset {
  const preset = cuePresets.find((candidate) => candidate.id === id);
  if (!preset) {
    const known = cuePresets.map((candidate) => candidate.id).join(', ');
    throw new Error(`Unknown cue preset "${id}". Known presets: ${known}.`);
  }
  return preset;
}
