/**
 * Creating a study: choose its items (filters, then the seeded order, then the limit), store
 * its conditions, and queue the uncued control reps. Cued reps are queued once an item's
 * uncued majority is known (scheduling.ts), or at once under a fixed direction policy.
 */
import { randomUUID } from 'node:crypto';
import { studyDimensions, type StudySpec } from '../../../shared/study-spec';
import type { SuiteItem } from '../../../shared/suite-format';
import { EngineError } from '../errors';
import { seededRandom } from '../random';
import { type Store, inTransaction } from '../store';
import { insertJob } from '../store/faces/jobs';
import { containerCapProblem, specNeedsDocker } from '../environments';
import { insertStudyRows } from '../store/faces/studies';
import { expandConditions, isControl } from './conditions';
import { queueFixedDirectionJobs } from './scheduling';
import { withStudyFamilies } from './spec-file';
import { isSimulatedProvider } from '../../../shared/catalogue/providers';

/** The items a spec selects from a suite, in the study's seeded order. */
export function selectItems(spec: StudySpec, items: readonly SuiteItem[]): SuiteItem[] {
  const filter = spec.items;
  const chosen = items.filter(
    (item) =>
      (!filter.ids || filter.ids.includes(item.id)) &&
      (!filter.datasets || filter.datasets.includes(item.dataset)) &&
      (!filter.substrates || filter.substrates.includes(item.substrate)) &&
      (!filter.gold || (item.gold !== undefined && filter.gold.includes(item.gold))),
  );
  const missing = (filter.ids ?? []).filter((id) => !items.some((item) => item.id === id));
  if (missing.length)
    throw new EngineError('bad_request', `The suite has no items ${missing.join(', ')}.`);
  const sorted = [...chosen].sort((a, b) => a.id.localeCompare(b.id));
  const shuffled = shuffle(sorted, spec.seed);
  return filter.limit ? shuffled.slice(0, filter.limit) : shuffled;
}

/** Fisher–Yates with the study seed (App. R: the seed fixes item order). */
function shuffle<T>(values: readonly T[], seed: number): T[] {
  const random = seededRandom(seed, 'item-order');
  const out = [...values];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const swap = Math.floor(random() * (index + 1));
    [out[index], out[swap]] = [out[swap] as T, out[index] as T];
  }
  return out;
}

/**
 * Refuses, before anything starts, a study whose items ask for a container beyond this
 * machine's cap (memory, CPUs, processes, root, network): launched, every rep of such an item
 * would fail, and a study would half-complete. Names each item and the setting to raise.
 */
function refuseBeyondCap(items: readonly SuiteItem[]): void {
  const problems = items.flatMap((item) => {
    if (!specNeedsDocker(item.environment)) return [];
    const problem = containerCapProblem(item.environment, item.trajectory);
    return problem ? [`  ${item.id}: ${problem}`] : [];
  });
  if (problems.length === 0) return;
  throw new EngineError(
    'bad_request',
    `${problems.length} item(s) ask for more than this machine's container cap, so nothing ` +
      `was started:\n${problems.join('\n')}\nRaise the setting named, or leave the item out ` +
      "(the spec's items filter).",
  );
}

/** Creates the study and queues its first jobs; returns the study id. */
export function createStudy(
  store: Store,
  given: StudySpec,
  suiteItems: readonly SuiteItem[],
): string {
  const spec = withStudyFamilies(given);
  const items = selectItems(spec, suiteItems);
  if (items.length === 0)
    throw new EngineError('bad_request', 'The item filter selects no items from the suite.');
  for (const item of items) {
    for (const dimension of studyDimensions(spec)) {
      if (!item.dimensions.includes(dimension) && dimension !== 'error_attribution')
        throw new EngineError('bad_request', `Item ${item.id} is not judged on "${dimension}".`);
    }
  }
  refuseBeyondCap(items);
  const id = randomUUID();
  const now = new Date().toISOString();
  const simulated = spec.judges.some((judge) => isSimulatedProvider(judge.provider));
  const conditions = expandConditions(spec);
  inTransaction(store, () => {
    insertStudyRows(store, { id, spec, simulated, now, items, conditions });
    // The control and every mitigated control need no majority: queued at once.
    const controls = conditions.filter(isControl);
    for (const item of items) {
      for (const judge of spec.judges) {
        for (const control of controls) {
          for (let rep = 1; rep <= spec.reps; rep += 1) {
            insertJob(store, {
              studyId: id,
              conditionKey: control.key,
              itemId: item.id,
              judgeId: judge.id,
              rep,
              direction: '',
            });
          }
        }
        queueFixedDirectionJobs(store, id, spec, conditions, item.id, judge.id);
      }
    }
  });
  return id;
}
