/**
 * SWE-bench gold labels wherever public harnesses write them: a `report.json` beside the
 * trajectory, under `label/`, in an instance folder at any depth (`<iid>/<anything>/report.json`,
 * the harness's `logs/run_evaluation/<run>/<model>/<iid>/report.json`), and summary reports (the
 * harness's `<model>.<run>.json` and sb-cli's report with `resolved_ids` / `unresolved_ids`,
 * SWE-bench experiments' `results.json` with `resolved`). A report is matched to an instance by
 * the id the report itself holds (`{ "<iid>": { "resolved": … } }`), never by its folder's name;
 * only an unwrapped report (`{ "resolved": … }`) is placed by the instance folder holding it.
 * Only `resolved` is read: a report's test lists are what graders see.
 */
import { parseJson } from './files';
import { instanceIdPattern } from './swe-bench';
import { ImportProblem, type ImportContext } from './types';

/** A resolved label for one instance, and the report it came from. */
export interface GoldLabel {
  resolved: boolean;
  source: string;
}

/** What was found for an instance: a label, reports that disagree, or nothing. */
export type GoldLookup = GoldLabel | { conflict: string[] } | undefined;

interface Candidate {
  /** Undefined when the report names the instance but its `resolved` is not a boolean. */
  resolved: boolean | undefined;
  source: string;
  /** 0: a per-instance report; 1: a summary of a whole run. A per-instance report wins. */
  rank: number;
}

// Files no SWE-bench harness writes its labels in: trajectories, predictions, other formats.
const notReports =
  /(\.traj\.json|\.traj|(^|\/)(preds|trajectory|messages|meta|config|result)\.json|\.jsonl)$/;
/** A summary's lists that name instances the harness judged not resolved. */
const failLists = ['unresolved_ids', 'empty_patch_ids', 'unresolved', 'no_apply', 'no_generation'];
/** SWE-bench experiments' `results.json` lists every evaluated instance in these. */
const evaluatedLists = ['applied', 'generated', 'with_logs'];

const cache = new WeakMap<ImportContext, Map<string, Candidate[]>>();

/**
 * The label of `instanceId` for the run in `near` (its trajectory): a per-instance report over a
 * summary; of several, the one sharing the most leading folders with the run (a folder holding
 * two models' runs of one instance keeps each with its own report). Equally near reports that
 * disagree give no label: the caller says so rather than pick one.
 */
export function readResolved(context: ImportContext, instanceId: string, near: string): GoldLookup {
  const candidates = goldIndex(context).get(instanceId) ?? [];
  if (candidates.length === 0) return undefined;
  const best = Math.min(...candidates.map((entry) => entry.rank));
  const ranked = candidates.filter((entry) => entry.rank === best);
  const closest = Math.max(...ranked.map((entry) => sharedFolders(entry.source, near)));
  const nearest = ranked.filter((entry) => sharedFolders(entry.source, near) === closest);
  const first = nearest[0]!;
  if (first.resolved === undefined) {
    throw new ImportProblem(first.source, `resolved: expected true or false for ${instanceId}`);
  }
  if (nearest.some((entry) => entry.resolved !== first.resolved)) {
    return { conflict: nearest.map((entry) => entry.source) };
  }
  return { resolved: first.resolved, source: first.source };
}

/** Every label in the folder, by instance id; read once per import. */
function goldIndex(context: ImportContext): Map<string, Candidate[]> {
  const cached = cache.get(context);
  if (cached) return cached;
  const index = new Map<string, Candidate[]>();
  const add = (instanceId: string, candidate: Candidate) => {
    const list = index.get(instanceId) ?? [];
    if (!list.some((entry) => entry.source === candidate.source)) list.push(candidate);
    index.set(instanceId, list);
  };
  for (const path of context.files) {
    if (!path.endsWith('.json') || notReports.test(path)) continue;
    const file = context.read(path);
    // Most JSON files in a run folder are not reports: skip them before parsing.
    if (!file.text.includes('"resolved')) continue;
    let report: unknown;
    try {
      report = parseJson(file);
    } catch {
      continue; // a broken file that is not a report of this run is not this import's problem
    }
    if (!isObject(report)) continue;
    if (path.split('/').pop() === 'report.json') readInstanceReport(path, report, add);
    readSummary(path, report, add);
  }
  cache.set(context, index);
  return index;
}

/** `{ "<iid>": { "resolved": … } }`, or unwrapped `{ "resolved": … }` in an instance folder. */
function readInstanceReport(
  path: string,
  report: Record<string, unknown>,
  add: (instanceId: string, candidate: Candidate) => void,
): void {
  if ('resolved' in report && !Array.isArray(report.resolved)) {
    // Unwrapped: the report does not say whose it is, so its instance folder (at any depth) does.
    const owner = path
      .split('/')
      .slice(0, -1)
      .reverse()
      .find((folder) => instanceIdPattern.test(folder));
    if (owner) add(owner, { resolved: booleanOrUndefined(report.resolved), source: path, rank: 0 });
    return;
  }
  for (const [key, entry] of Object.entries(report)) {
    if (!isObject(entry) || !('resolved' in entry)) continue;
    add(key, { resolved: booleanOrUndefined(entry.resolved), source: path, rank: 0 });
  }
}

/** A run's summary: lists of instance ids resolved and not. */
function readSummary(
  path: string,
  report: Record<string, unknown>,
  add: (instanceId: string, candidate: Candidate) => void,
): void {
  const ids = (key: string) =>
    Array.isArray(report[key])
      ? (report[key] as unknown[]).filter((id): id is string => typeof id === 'string')
      : [];
  const resolved = new Set([...ids('resolved_ids'), ...ids('resolved')]);
  if (resolved.size === 0 && !failLists.some((key) => Array.isArray(report[key]))) return;
  for (const id of resolved) add(id, { resolved: true, source: path, rank: 1 });
  const failed = new Set([...failLists, ...evaluatedLists].flatMap(ids));
  for (const id of failed) {
    if (!resolved.has(id)) add(id, { resolved: false, source: path, rank: 1 });
  }
}

function booleanOrUndefined(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How many leading folders two paths share. */
export function sharedFolders(path: string, near: string): number {
  const [a, b] = [path.split('/'), near.split('/')];
  let count = 0;
  while (count < a.length - 1 && count < b.length - 1 && a[count] === b[count]) count += 1;
  return count;
}

/** An item's `gold`, and a note when reports disagree. */
export function goldFields(lookup: GoldLookup): { gold?: 'pass' | 'fail'; note?: string } {
  if (!lookup) return {};
  if ('conflict' in lookup) {
    return { note: `no gold: equally near reports disagree (${lookup.conflict.join(', ')})` };
  }
  return { gold: lookup.resolved ? 'pass' : 'fail' };
}
