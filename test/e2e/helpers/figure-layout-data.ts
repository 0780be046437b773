/**
 * Results files with real-world names (dated model ids, conditions that carry their placement
 * and mitigation) for the layout tests: the names are as long as the ones people import, so a
 * label that does not fit shows up as a fault instead of hiding behind short demo names.
 */

import { resultsCsv } from './results-fixture';

const judges = ['claude-opus-4-7-20260401', 'qwen3-235b-a22b-instruct-2507', 'gpt-5.1-2025-11-13'];
const datasets = [
  'agent-judge-filesystem-hard',
  'aj-postgres-migrations',
  'swe-bench-verified-mini',
  'terminal-bench-2-core',
];
const arms = [
  {
    condition: 'strong-pre-screening@system',
    placement: 'system_prompt',
    mitigation: '',
    flip: 0.4,
  },
  {
    condition: 'strong-pre-screening@system+guard',
    placement: 'system_prompt',
    mitigation: 'evidence-first-guard',
    flip: 0.1,
  },
  {
    condition: 'authority-claim-senior-reviewer@user',
    placement: 'user_message',
    mitigation: '',
    flip: 0.3,
  },
  {
    condition: 'peer-consensus-three-reviewers@assistant',
    placement: 'assistant_turn',
    mitigation: '',
    flip: 0.15,
  },
];

/** A verdict study: three judges × four datasets, the control and four cued arms, simulated. */
export function longNamesCsv(): string {
  return resultsCsv(
    { judges, datasets, arms, cueLabel: 'authority-of-a-senior-reviewer' },
    20_261_202,
  );
}

/** A graded study (1–100 scores) with the same long judge and condition names. */
export function longNamesGradedCsv(): string {
  const lines = ['item_id,dataset,judge,condition,cue_direction,rep,score,dimension,simulated'];
  for (const [judgeIndex, judge] of judges.entries()) {
    const pull = 30 - judgeIndex * 10;
    for (let item = 1; item <= 8; item += 1) {
      for (let rep = 1; rep <= 3; rep += 1) {
        const base = 66 + ((item * 7 + rep * 3) % 9);
        lines.push(`i${item},${datasets[0]},${judge},uncued,,${rep},${base},completeness,true`);
        const cued = Math.max(1, base - pull + ((item + rep) % 5) * 3 - 6);
        lines.push(
          `i${item},${datasets[0]},${judge},strong-pre-screening@system,severity,${rep},${cued},completeness,true`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
