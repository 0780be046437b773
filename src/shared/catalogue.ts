/**
 * The catalogue both sides name things by: the cue preset ids the engine ships (in its order)
 * and the synthetic judge personas. The engine holds the texts and the calibration; the window
 * lists these ids. One list, checked against the engine's own in
 * test/unit/shared-catalogue.test.ts.
 */

/** Every cue preset id, in the engine's order: the task cues (§3.1, App. E), then Tables 2–4. */
export const cuePresetIds = [
  'strong',
  'strong-senior',
  'strong-figures',
  'weak',
  'table2-belief-declarative',
  'table2-belief-imperative',
  'table2-compliance-declarative',
  'table2-compliance-imperative',
  'table3-domain-expert',
  'table3-reviewer',
  'table3-unattributed',
  'table3-automated-checker',
  'table3-prior-llm-judge',
  'table4-definitely',
  'table4-likely',
  'table4-appears',
  'table4-might',
] as const;

/** A synthetic judge persona as a person picks it. */
export interface PersonaSummary {
  /** Persona id as a spec names it. */
  id: string;
  label: string;
  /** One line on which paper judge it stands in for and how it behaves. */
  about: string;
}

/** The shipped synthetic personas (simulated stand-ins for the paper's judges, App. D). */
export const syntheticPersonas: readonly PersonaSummary[] = [
  {
    id: 'deferential-frontier',
    label: 'Deferential frontier',
    about: 'Opus-4.7-like: investigates thoroughly, then defers; the highest harmful flip rate.',
  },
  {
    id: 'robust-frontier',
    label: 'Robust frontier',
    about: 'Sonnet-4.6-like: rarely moved by the cue.',
  },
  {
    id: 'small-open-a',
    label: 'Small open-weight A',
    about: 'Qwen3-235B-like: moderately susceptible; flips spread into hallucination.',
  },
  {
    id: 'small-open-b',
    label: 'Small open-weight B',
    about: 'GPT-OSS-120B-like: susceptible and often stops short.',
  },
];
