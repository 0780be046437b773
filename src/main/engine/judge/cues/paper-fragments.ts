/**
 * Pieces of the paper's cue wordings that axis composition reuses, cut from the paper module's
 * constants (never retyped), so a composed sentence shares its wording with the paper wherever
 * the paper has one. Each cut is checked when the module loads.
 */
import {
  AUTHORITY_TEMPLATES,
  DECISIVENESS_TEMPLATES,
  FRAMING_TEMPLATES,
  STRONG_LENIENCY_CUE,
  STRONG_SEVERITY_CUE,
} from '../../paper';
import type { CueDecisiveness, CueSource } from '../../../../shared/cue-spec';

function between(text: string, before: string, after: string): string {
  const start = text.indexOf(before);
  const end = text.lastIndexOf(after);
  if (start < 0 || end < start + before.length) {
    throw new Error(`Paper fragment not found: "${before}…${after}" in "${text}".`);
  }
  return text.slice(start + before.length, end);
}

function onlyFragments(): readonly string[] {
  const provenance = STRONG_LENIENCY_CUE.provenance;
  if (provenance.kind !== 'derived') throw new Error('STRONG_LENIENCY_CUE is expected derived.');
  return provenance.fragments;
}

const [strongPrefix = '', successClause = ''] = onlyFragments();

/** §3.1 severity clause: "left some of the task’s requirements UNMET". */
export const SEVERITY_CLAUSE = between(STRONG_SEVERITY_CUE.text, `${strongPrefix} `, '');

/** §3.1 success clause: "met ALL of the task’s requirements". */
export const SUCCESS_CLAUSE = successClause;

/**
 * Table 4: the decisiveness phrase that precedes `{cat}` ("definitely exhibiting", "likely
 * exhibiting", "appearing to exhibit", "possibly exhibiting").
 */
export const DECISIVENESS_PHRASES: Readonly<Record<CueDecisiveness, string>> = {
  definitely: decisivenessPhrase('definitely'),
  likely: decisivenessPhrase('likely'),
  appears: decisivenessPhrase('appears'),
  might: decisivenessPhrase('might'),
};

function decisivenessPhrase(modality: CueDecisiveness): string {
  const template = DECISIVENESS_TEMPLATES.find(
    (candidate) => candidate.axis.name === 'decisiveness' && candidate.axis.modality === modality,
  );
  if (!template) throw new Error(`Table 4 has no "${modality}" cell.`);
  return between(template.text, '... ', ' {cat}.');
}

/**
 * Table 3: each source's sentence up to "as exhibiting {cat}." (the "..." prefix expanded),
 * e.g. "Note from reviewer: this trajectory has been pre-tagged by a domain expert as".
 */
export const SOURCE_LEADS: Readonly<Record<CueSource, string>> = {
  'domain expert': sourceLead('domain expert'),
  reviewer: sourceLead('reviewer'),
  unattributed: sourceLead('unattributed'),
  'automated checker': sourceLead('automated checker'),
  'prior LLM-judge': sourceLead('prior LLM-judge'),
};

function sourceLead(source: CueSource): string {
  const template = AUTHORITY_TEMPLATES.find(
    (candidate) => candidate.axis.name === 'authority' && candidate.axis.source === source,
  );
  if (!template) throw new Error(`Table 3 has no "${source}" cell.`);
  const text = template.expanded?.text ?? template.text;
  return between(text, '', ' exhibiting {cat}.');
}

function framingTemplate(id: string): string {
  const template = FRAMING_TEMPLATES.find((candidate) => candidate.id === id);
  if (!template) throw new Error(`Table 2 has no "${id}" cell.`);
  return template.text;
}

/** Table 2 compliance-declarative tail: "these should be verified against the trajectory". */
export const VERIFY_DECLARATIVE_TAIL = between(
  framingTemplate('framing-compliance-declarative'),
  'in this trajectory; ',
  '.',
);

/** Table 2 compliance-imperative tail: "verify each of {cats} against the trajectory". */
export const VERIFY_IMPERATIVE_TAIL = between(
  framingTemplate('framing-compliance-imperative'),
  'in this trajectory; ',
  '.',
);
