/**
 * Reading a voter's answer: `{label, rationale, evidence_lines}` (App. N), a model response and
 * so `unknown` until parsed. The answer is read, never guessed: an answer with no JSON object, a
 * label outside the flip kind's mechanisms, or a malformed field makes the vote `invalid`, with
 * the problem kept. Accepted spellings: the paper's App. N labels (`early_termination`,
 * `better-exploration`, `evidence-reweighting`, over-trust on a helpful flip) and hyphen/space
 * variants of ours.
 */
import { z } from 'zod';
import {
  labelsFor,
  type FlipKind,
  type MechanismLabel,
  type OverTrustSubMode,
} from '../../mechanism-labels';

/** A readable answer, or why it is not. */
export type VoterAnswer =
  | {
      ok: true;
      label: MechanismLabel;
      subMode: OverTrustSubMode | null;
      rationale: string;
      /** Cited lines that exist, as "B12" / "C7". */
      evidenceLines: string[];
    }
  | { ok: false; problem: string };

const answerSchema = z.object({
  label: z.string().min(1),
  rationale: z.string().default(''),
  evidence_lines: z.array(z.union([z.string(), z.number()])).default([]),
  sub_mode: z.string().nullable().optional(),
});

const ALIASES: Record<
  FlipKind,
  Record<string, { label: MechanismLabel; subMode?: OverTrustSubMode }>
> = {
  harmful: {
    over_trust: { label: 'over_trust' },
    overtrust: { label: 'over_trust' },
    hallucination: { label: 'hallucination' },
    under_investigation: { label: 'under_investigation' },
    early_termination: { label: 'under_investigation' },
    evidence_reweighting: { label: 'over_trust', subMode: 'evidence_reweighting' },
    evidence_reweight: { label: 'over_trust', subMode: 'evidence_reweighting' },
  },
  helpful: {
    better_investigation: { label: 'better_investigation' },
    better_exploration: { label: 'better_investigation' },
    lucky_deference: { label: 'lucky_deference' },
    over_trust: { label: 'lucky_deference' },
    overtrust: { label: 'lucky_deference' },
    evidence_reweighting: { label: 'evidence_reweighting' },
    evidence_reweight: { label: 'evidence_reweighting' },
  },
};

/** "Evidence re-weighting" → "evidence_reweighting". */
function normalize(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .replace(/re-weight/g, 'reweight')
    .replace(/[\s-]+/g, '_');
}

/** JSON objects in the text, last first: the whole text, fenced blocks, then balanced braces. */
export function jsonCandidates(text: string): string[] {
  const found: string[] = [text.trim()];
  for (const match of text.matchAll(/```(?:json)?\s*\n?([\s\S]*?)```/g))
    found.push((match[1] ?? '').trim());
  const starts: number[] = [];
  for (let index = 0; index < text.length; index += 1) if (text[index] === '{') starts.push(index);
  for (const start of starts) {
    let depth = 0;
    let inString = false;
    for (let index = start; index < text.length; index += 1) {
      const char = text[index];
      if (inString) {
        if (char === '\\') index += 1;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === '{') depth += 1;
      else if (char === '}' && --depth === 0) {
        found.push(text.slice(start, index + 1));
        break;
      }
    }
  }
  return [found[0] as string, ...found.slice(1).reverse()];
}

/** The text as a JSON object, or null. */
export function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Reads one voter's answer for a flip of `kind` whose transcripts have these line counts. */
export function parseVoterAnswer(
  text: string,
  kind: FlipKind,
  lines: { baseline: number; cued: number },
): VoterAnswer {
  const visible = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const object = jsonCandidates(visible)
    .map(parseObject)
    .find((value) => value !== null && 'label' in value);
  if (!object) return { ok: false, problem: 'the answer holds no JSON object with a "label"' };
  const parsed = answerSchema.safeParse(object);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    return { ok: false, problem: `the answer's JSON is malformed (${issues.join('; ')})` };
  }
  const mapped = ALIASES[kind][normalize(parsed.data.label)];
  if (!mapped) {
    const allowed = labelsFor(kind).join(', ');
    return {
      ok: false,
      problem: `"${parsed.data.label}" is not a ${kind}-flip mechanism (${allowed})`,
    };
  }
  const subModeText = parsed.data.sub_mode ? normalize(parsed.data.sub_mode) : null;
  const subMode =
    mapped.label !== 'over_trust'
      ? null
      : (mapped.subMode ??
        (subModeText === 'deference' || subModeText === 'evidence_reweighting'
          ? subModeText
          : null));
  const evidenceLines = parsed.data.evidence_lines.flatMap((entry) => {
    const match = /^\[?([BC])(\d+)\]?$/i.exec(String(entry).trim());
    if (!match) return [];
    const side = (match[1] as string).toUpperCase();
    const number = Number(match[2]);
    const limit = side === 'B' ? lines.baseline : lines.cued;
    return number >= 1 && number <= limit ? [`${side}${number}`] : [];
  });
  return {
    ok: true,
    label: mapped.label,
    subMode,
    rationale: parsed.data.rationale,
    evidenceLines,
  };
}
