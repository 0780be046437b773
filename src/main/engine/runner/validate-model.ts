/**
 * The fast engine of `cuelab validate`: judge-rep rows drawn straight from the synthetic judge's
 * own model of a planted persona (simulation/item-calibration.ts), without the runner's tool
 * loop, so hundreds of replicates take seconds. Each rep follows its item's template draw with
 * probability ρ (the persona's `repCorrelation`), else draws its own; a rep flips with per-rep
 * probability repRate(p, ρ), so the majority of three flips with item-level probability p. Every
 * arm draws on its own (the synthetic judge's default). The runner engine (validate.ts) checks
 * this model against the real runner on a few replicates.
 */
import type { JudgeRepRow } from '../analysis';
import { seededRandom } from '../random';
import { repRate } from '../simulation';
import { VALIDATE_REPS, type Scenario } from './validate-scenarios';

/** The arm's cue label, placement and mitigation, as the runner writes them. */
function armColumns(condition: string) {
  const [cue = '', rest = ''] = condition.split('@');
  const [placement = '', mitigation = null] = rest.split('+');
  return { cueLabel: cue, placement, mitigation };
}

/** Rows of `replicates` × `items` items of one scenario, every rep drawn from the model. */
export function modelRows(
  scenario: Scenario,
  replicates: number,
  items: number,
  seed: number,
): JudgeRepRow[] {
  const rho = scenario.persona.repCorrelation;
  const rows: JudgeRepRow[] = [];
  for (let replicate = 0; replicate < replicates; replicate += 1)
    for (let item = 0; item < items; item += 1) {
      const gold = item % 2 === 0 ? ('pass' as const) : ('fail' as const);
      const against = gold === 'pass' ? ('fail' as const) : ('pass' as const);
      const base = {
        itemId: `r${replicate}-i${item}`,
        dataset: `r${replicate}`,
        judge: scenario.persona.id,
        score: null,
        gold,
        dimension: 'task_success',
        turns: null,
        simulated: true,
      };
      for (let rep = 0; rep < VALIDATE_REPS; rep += 1)
        rows.push({ ...base, condition: 'uncued', cueDirection: null, rep, verdict: gold });
      for (const arm of scenario.arms) {
        const random = seededRandom(seed, 'validate-model', arm.condition, base.itemId);
        const perRep = repRate(arm.harmful, rho);
        const template = random() < perRep;
        for (let rep = 0; rep < VALIDATE_REPS; rep += 1) {
          const flipped = random() < rho ? template : random() < perRep;
          rows.push({
            ...base,
            ...armColumns(arm.condition),
            condition: arm.condition,
            cueDirection: gold === 'pass' ? 'severity' : 'leniency',
            rep,
            verdict: flipped ? against : gold,
          });
        }
      }
    }
  return rows;
}
