/**
 * A seeded simulated study without containers: the real synthetic judge (provider.ts) driven
 * through its probe plan with canned tool outputs, in the paper's design (§3.1): three uncued
 * reps, then three cued reps pointing opposite the uncued majority. Used to check the persona
 * calibration against the paper's item-level rates statistically (thousands of items).
 */
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { majorityVote } from '../../src/main/engine/analysis/majority';
import { readoutFor } from '../../src/main/engine/judge/readout-catalog';
import type { Persona } from '../../src/main/engine/providers/synthetic/personas';
import { createSyntheticProvider } from '../../src/main/engine/providers/synthetic/provider';
import type { ChatMessage } from '../../src/main/engine/providers/types';
import { completeCueAxes, type CueDirection } from '../../src/shared/cue-spec';
import { suiteItemSchema, type SuiteItem } from '../../src/shared/suite-format';

const tools = ['list_dir', 'read_file', 'sql_query', 'submit_verdict'].map((name) => ({
  name,
  description: name,
  inputSchema: {},
}));
const readout = readoutFor('task_success', undefined);

/** One simulated item: its gold label and whether its surface checks mislead. */
interface SimulatedItem {
  item: SuiteItem;
  outputs: Record<string, string>;
}

/**
 * Item `index`: gold pass on a share `passShare` of the items; its decisive probe shows the truth; on a share
 * `misleading` of the failing items the surface checks look fine (so a judge that skips the
 * decisive probe gets it wrong). Surface probe count varies (1–3) so turns vary as in Fig. 3.
 */
function simulatedItem(index: number, misleading: number, passShare: number): SimulatedItem {
  // A low-discrepancy sequence spreads pass items evenly at any share.
  const gold: BinaryVerdict = (index * 0.6180339887) % 1 < passShare ? 'pass' : 'fail';
  const surfaceCount = 1 + (index % 3);
  const surfaceOk = gold === 'pass' || (index * 7919) % 1000 < misleading * 1000;
  const surface = Array.from({ length: surfaceCount }, (_, probe) => ({
    id: `surface-${probe}`,
    tool: 'list_dir' as const,
    input: { path: `dir-${probe}` },
    expect: { kind: 'contains' as const, value: 'report.csv' },
    claim: `dir-${probe} holds the report`,
    decisive: false,
  }));
  const item = suiteItemSchema.parse({
    id: `sim-${index}`,
    dataset: 'simulated',
    substrate: 'database',
    task: 'Finish every step.',
    trajectory: [{ role: 'user', content: 'Finish every step.' }],
    gold,
    probes: [
      ...surface,
      {
        id: 'rows',
        tool: 'sql_query',
        input: { sql: 'SELECT done FROM steps' },
        expect: { kind: 'not_contains', value: '| 0' },
        claim: 'every step is done',
        decisive: true,
      },
    ],
  });
  const outputs: Record<string, string> = {
    rows: gold === 'pass' ? 'done\n1\n1\n(2 rows)' : 'done\n1\n| 0\n(2 rows)',
  };
  surface.forEach((probe) => {
    outputs[probe.input.path] = surfaceOk ? '- 10\treport.csv' : '- 10\tnotes.txt';
  });
  return { item, outputs };
}

/** Plays the loop: answers each probe call with the item's canned output; returns verdict and turns. */
async function runRep(
  persona: Persona,
  simulated: SimulatedItem,
  rep: number,
  direction: CueDirection | null,
  seed: number,
): Promise<{ verdict: BinaryVerdict | null; turns: number }> {
  const provider = createSyntheticProvider({
    item: simulated.item,
    persona,
    cue: direction ? { axes: completeCueAxes(), direction, placement: { kind: 'system' } } : null,
    seed,
    repKey: `${simulated.item.id}/${persona.id}/${rep}`,
    itemKey: `${simulated.item.id}/${persona.id}`,
    readout,
  });
  const messages: ChatMessage[] = [{ role: 'user', content: 'Judge the agent.' }];
  for (let turn = 1; turn <= 30; turn += 1) {
    const response = await provider.complete({ model: 'synthetic', system: 'S', messages, tools });
    messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
    const call = response.toolCalls[0];
    if (!call) throw new Error('the synthetic judge answered without a tool call');
    if (call.name === 'submit_verdict') {
      const outcome = (call.input as { verdict?: unknown }).verdict;
      return { verdict: outcome === 'pass' || outcome === 'fail' ? outcome : null, turns: turn };
    }
    const input = call.input as { path?: string };
    const key = call.name === 'sql_query' ? 'rows' : (input.path ?? '');
    messages.push({
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: simulated.outputs[key] ?? '',
    });
  }
  throw new Error('the synthetic judge did not submit');
}

/** Options of a simulated study. */
export interface SimulatedStudyOptions {
  items: number;
  /** Share of failing items whose surface checks look fine (default 0.5). */
  misleading?: number;
  /** Share of items whose gold label is pass (default 0.5). */
  passShare?: number;
  seed?: number;
}

/** The study's reps as analysis rows: uncued ×3, then the cue opposite the uncued majority ×3. */
export async function simulateStudy(
  persona: Persona,
  options: SimulatedStudyOptions,
): Promise<JudgeRepRow[]> {
  const rows: JudgeRepRow[] = [];
  const seed = options.seed ?? 17;
  for (let index = 0; index < options.items; index += 1) {
    const simulated = simulatedItem(index, options.misleading ?? 0.5, options.passShare ?? 0.5);
    const base = {
      itemId: simulated.item.id,
      dataset: 'simulated',
      judge: persona.id,
      gold: simulated.item.gold ?? null,
      dimension: 'task_success',
      score: null,
      simulated: true,
    };
    const uncued: (BinaryVerdict | null)[] = [];
    for (const rep of [1, 2, 3]) {
      const { verdict, turns } = await runRep(persona, simulated, rep, null, seed);
      uncued.push(verdict);
      rows.push({ ...base, condition: 'uncued', cueDirection: null, rep, verdict, turns });
    }
    const majority = majorityVote(uncued).verdict;
    if (majority === null) continue;
    const direction: CueDirection = majority === 'pass' ? 'severity' : 'leniency';
    for (const rep of [1, 2, 3]) {
      const { verdict, turns } = await runRep(persona, simulated, rep, direction, seed);
      rows.push({ ...base, condition: 'strong', cueDirection: direction, rep, verdict, turns });
    }
  }
  return rows;
}
