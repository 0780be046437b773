/**
 * `cuelab suite import PATH --format auto|…`: finds the runs each format reads in
 * a folder (or one file), reads every one it can, and assembles one suite. A run that cannot
 * be read is skipped with `path: problem`; nothing is stored until the whole suite is built,
 * and then in one transaction (saveSuite), so a failed import leaves the workspace as it was.
 */
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  suiteItemSchema,
  type ImportFormat,
  type SuiteFile,
  type SuiteItem,
} from '../../../../shared/suite-format';
import { EngineError } from '../../errors';
import {
  itemLimits,
  looksLikeSuiteFile,
  oneSuiteFile,
  readSuiteFile,
  suiteFilesIn,
  type ItemLimits,
} from './cuelab-suite';
import { readSource, readSourceBytes, sha256, stateFolderAt, taskFolder, walkFiles } from './files';
import { harborImporter } from './harbor';
import { inspectImporter } from './inspect';
import { mcpmarkImporter } from './mcpmark';
import { miniSweAgentImporter } from './mini-swe-agent';
import { stepWarning, storedActions } from './step-count';
import { sweAgentImporter } from './swe-agent';
import { terminalBenchImporter } from './terminal-bench';
import {
  ImportProblem,
  type ImportContext,
  type ImportedItem,
  type Importer,
  type ImportOptions,
  type SkippedFile,
  type StateFolder,
  type TaskFolder,
} from './types';
import { postgresOf } from '../../../../shared/substrates/postgres';

/** Every reader, in the order a mixed folder is read. */
export const importers: readonly Importer[] = [
  miniSweAgentImporter,
  sweAgentImporter,
  terminalBenchImporter,
  harborImporter,
  mcpmarkImporter,
  inspectImporter,
];

/** Default cut for tool outputs of imported runs (characters; see trajectory-render.ts). */
export const defaultToolOutputLimit = 4000;

/** What `importRuns` was asked to do. */
export interface ImportRequest {
  path: string;
  format: 'auto' | ImportFormat;
  /** Suite name; its id is made from it. Default: the folder's name. */
  name?: string;
  tasksDir?: string;
  toolOutputLimit?: number | 'unbounded';
  keepFlagged?: boolean;
  /** Hears how many of the files found have been read as runs (the files worker reports it). */
  onRead?: (read: number, files: number) => void;
}

/** One imported item, for the summary. */
export interface ImportedSummary {
  id: string;
  /** The harness format it was read from, or `cuelab` for CueLab's own suite file. */
  format: ImportFormat | 'cuelab';
  source: string;
  gold: 'pass' | 'fail' | null;
  messages: number;
  environment: string;
  /** The container limits the item asks for (cpus, memory, pids, network, storage). */
  limits: ItemLimits;
  flags: string[];
  /** The count check: agent actions the source shows and the item keeps (step-count.ts). */
  steps?: { source: number; stored: number };
  /** Said aloud: the item keeps fewer steps than its source shows. */
  warnings: string[];
}

/** The suite built and what happened to every run found. */
export interface ImportOutcome {
  suite: SuiteFile;
  imported: ImportedSummary[];
  skipped: SkippedFile[];
  /** Ids of imported items no gold label was found for: a study cannot score them. */
  withoutGold: string[];
  /** Every item's warnings (fewer steps recovered than the source shows), for the summary. */
  warnings: string[];
}

/** Reads every run under `request.path`; throws when none could be imported. */
export function importRuns(request: ImportRequest): ImportOutcome {
  const target = resolve(request.path);
  let isFile: boolean;
  try {
    isFile = statSync(target).isFile();
  } catch (error) {
    throw new EngineError('not_found', `Cannot read ${request.path}: ${(error as Error).message}.`);
  }
  const root = isFile ? dirname(target) : target;
  let files: string[];
  try {
    files = isFile ? [basename(target)] : walkFiles(root);
  } catch (error) {
    throw new EngineError('bad_request', (error as Error).message);
  }
  const options: ImportOptions = {
    ...(request.tasksDir ? { tasksDir: resolve(request.tasksDir) } : {}),
    toolOutputLimit: request.toolOutputLimit ?? defaultToolOutputLimit,
    keepFlagged: request.keepFlagged ?? false,
  };
  if (isFile && looksLikeSuiteFile(files[0]!, readSource(root, files[0]!).text)) {
    return suiteOutcome(readSuiteFile(root, files[0]!, request.path), request.path);
  }
  const fileSet = new Set(files);
  const allFiles = isFile ? siblingFiles(root, files) : files;
  const allFileSet = new Set(allFiles);
  const context: ImportContext = {
    // A single file still sees its run folder's report.json / preds.json beside it.
    files: allFiles,
    read: (path) => readSource(root, path),
    readBytes: (path) => readSourceBytes(root, path),
    has: (path) => allFileSet.has(path),
    task: (name, marker, near) => findTask(root, allFiles, options.tasksDir, name, marker, near),
    state: (relative) => findState(root, allFiles, options.tasksDir, relative),
    options,
  };
  const chosen = importers.filter(
    (importer) => request.format === 'auto' || importer.format === request.format,
  );
  const read: { imported: ImportedItem; format: ImportFormat }[] = [];
  const skipped: SkippedFile[] = [];
  const claimed = new Set<string>();
  for (const importer of chosen) {
    const units = importer
      .units({ ...context, files: isFile ? files : allFiles })
      .filter((unit) => fileSet.has(unit) && !claimed.has(unit));
    for (const unit of units) {
      claimed.add(unit);
      request.onRead?.(claimed.size, fileSet.size);
      try {
        const result = importer.read(unit, context);
        for (const entry of Array.isArray(result) ? result : [result]) {
          if (entry instanceof ImportProblem)
            skipped.push({ path: entry.path, reason: entry.problem });
          else read.push({ imported: entry, format: importer.format });
        }
      } catch (error) {
        if (!(error instanceof ImportProblem)) throw error;
        skipped.push({ path: error.path, reason: error.problem });
      }
    }
  }
  if (read.length === 0 && skipped.length === 0) {
    // No harness's run here: a dropped or typed folder may hold CueLab's own suite file.
    const suites = suiteFilesIn(root, files);
    if (suites.length > 0) {
      const path = oneSuiteFile(suites);
      return suiteOutcome(readSuiteFile(root, path, path), path);
    }
  }
  return assemble(root, request, options, read, skipped);
}

/** A CueLab suite file's items, summarised as an import's are. */
function suiteOutcome(suite: SuiteFile, source: string): ImportOutcome {
  const imported = suite.items.map((item) => ({
    id: item.id,
    format: 'cuelab' as const,
    source,
    gold: item.gold ?? null,
    messages: item.trajectory.length,
    environment: describeSpec(item),
    limits: itemLimits(item),
    flags: [],
    warnings: [],
  }));
  const withoutGold = imported.filter((entry) => entry.gold === null).map((entry) => entry.id);
  return { suite, imported, skipped: [], withoutGold, warnings: [] };
}

function assemble(
  root: string,
  request: ImportRequest,
  options: ImportOptions,
  read: { imported: ImportedItem; format: ImportFormat }[],
  skipped: SkippedFile[],
): ImportOutcome {
  const items: SuiteItem[] = [];
  const imported: ImportedSummary[] = [];
  const taken = new Set<string>();
  // The same run copied into two folders is one item: judging it twice adds nothing.
  const seen = new Map<string, string>();
  for (const { imported: candidate, format } of read) {
    const source = candidate.item.provenance?.source ?? '(unknown)';
    if (candidate.flags.length > 0 && !options.keepFlagged) {
      skipped.push({
        path: source,
        reason: `flagged, not imported (${candidate.flags.join('; ')}); --keep-flagged imports it`,
      });
      continue;
    }
    const id = uniqueId(candidate.item.id, taken);
    const body = {
      ...candidate.item,
      id,
      render: { toolOutputLimit: options.toolOutputLimit },
      ...(candidate.flags.length > 0 && candidate.item.provenance
        ? { provenance: { ...candidate.item.provenance, flags: candidate.flags } }
        : {}),
    };
    const parsed = suiteItemSchema.safeParse(body);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
      skipped.push({ path: source, reason: problems.join('; ') });
      continue;
    }
    const digest = contentDigest(parsed.data);
    const first = seen.get(digest);
    if (first !== undefined) {
      skipped.push({
        path: source,
        reason: `duplicate of ${first} (same content, sha256 ${digest.slice(0, 12)}…): imported once`,
      });
      continue;
    }
    seen.set(digest, source);
    taken.add(id);
    items.push(parsed.data);
    const check = candidate.stepCheck
      ? {
          ...candidate.stepCheck,
          stored: candidate.stepCheck.stored ?? storedActions(parsed.data.trajectory),
        }
      : undefined;
    const warning = check ? stepWarning(id, source, check) : undefined;
    imported.push({
      id,
      format,
      source,
      gold: parsed.data.gold ?? null,
      messages: parsed.data.trajectory.length,
      environment: describeSpec(parsed.data),
      limits: itemLimits(parsed.data, candidate.storageMb),
      flags: candidate.flags,
      ...(check ? { steps: { source: check.source, stored: check.stored } } : {}),
      warnings: warning ? [warning] : [],
    });
  }
  const name = request.name ?? basename(root);
  if (items.length === 0) {
    const reasons = skipped.map((entry) => `  ${entry.path}: ${entry.reason}`);
    throw new EngineError(
      'bad_request',
      reasons.length
        ? `Nothing in ${request.path} could be imported:\n${reasons.join('\n')}`
        : `No run of a known format (${importers.map((entry) => entry.format).join(', ')}) ` +
            `was found in ${request.path}.`,
    );
  }
  const suite: SuiteFile = {
    id: suiteId(name),
    name,
    description: `Imported from ${root} (${[...new Set(imported.map((entry) => entry.format))].join(', ')}).`,
    taxonomies: [],
    items,
  };
  const withoutGold = imported.filter((entry) => entry.gold === null).map((entry) => entry.id);
  const warnings = imported.flatMap((entry) => entry.warnings);
  return { suite, imported, skipped, withoutGold, warnings };
}

/** What makes two items the same run: everything but their id, source path and notes. */
function contentDigest(item: SuiteItem): string {
  const { id: _id, note: _note, provenance, ...content } = item;
  // The run's own identity inside its file (an Inspect sample and epoch, a benchmark instance)
  // is part of it: two epochs that happen to read alike are two runs; a copied file is not.
  return sha256(
    JSON.stringify({
      ...content,
      sourceSha256: provenance?.sha256 ?? '',
      instance: provenance?.instance ?? '',
    }),
  );
}

/** A single file's folder, so report.json / preds.json beside it count; just the file if huge. */
function siblingFiles(root: string, files: string[]): string[] {
  try {
    return walkFiles(root);
  } catch {
    return files;
  }
}

/** What environment an item gets, in a few words. */
export function describeSpec(item: SuiteItem): string {
  const spec = item.environment;
  if (spec.image) return `image ${spec.image}${spec.setup?.length ? ' + agent patch' : ''}`;
  if (spec.dockerfile) return 'Dockerfile (built locally)';
  const postgres = postgresOf(spec);
  if (postgres) {
    const replayed = spec.setup?.length ? ` + ${spec.setup.length} replayed SQL statement(s)` : '';
    return `PostgreSQL database ${postgres.database}${replayed}`;
  }
  const files = Object.keys(spec.files).length;
  // Files that are not text arrive through setup steps (mcpmark-state.ts): count them as such.
  const steps = spec.setup?.length ? ` + ${spec.setup.length} setup step(s)` : '';
  if (files > 0 || steps) return `${files} text file(s)${steps}`;
  return 'trajectory only';
}

function uniqueId(raw: string, taken: Set<string>): string {
  let base = raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  if (!base) base = 'item';
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  return id;
}

/** A suite id from a name: lower-case letters, digits and "-". */
export function suiteId(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id || 'imported';
}

/**
 * A task folder named `name` that holds `marker` (e.g. `task.toml`): first under the import
 * root, then under `tasksDir`.
 */
function findTask(
  root: string,
  files: readonly string[],
  tasksDir: string | undefined,
  name: string,
  marker: string,
  near = '',
): TaskFolder | undefined {
  // The name comes from a stranger's file: it may only name a folder, never climb out of one.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.includes('..')) return undefined;
  const matches = files.filter((path) => {
    const parts = path.split('/');
    return parts[parts.length - 1] === marker && parts[parts.length - 2] === name;
  });
  // A mixed folder may hold two tasks of one name (two benchmarks' hello-world): the one
  // sharing the most leading folders with the run is its own.
  const shared = (path: string) => {
    const [a, b] = [path.split('/'), near.split('/')];
    let count = 0;
    while (count < a.length - 1 && count < b.length - 1 && a[count] === b[count]) count += 1;
    return count;
  };
  const inRoot = matches.reduce<string | undefined>(
    (best, path) => (best === undefined || shared(path) > shared(best) ? path : best),
    undefined,
  );
  if (inRoot) {
    const folder = join(root, dirname(inRoot));
    return taskFolder(folder, dirname(inRoot));
  }
  if (!tasksDir) return undefined;
  const candidate = join(tasksDir, name);
  try {
    if (statSync(join(candidate, marker)).isFile()) return taskFolder(candidate, candidate);
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * A state folder `relative` (e.g. `postgres_state`): the first under the import root at any
 * depth, else `tasksDir/relative` or `tasksDir/../relative` (MCPMark keeps `tasks/` beside it).
 */
function findState(
  root: string,
  files: readonly string[],
  tasksDir: string | undefined,
  relative: string,
): StateFolder | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(relative) || relative.includes('..')) return undefined;
  for (const path of files) {
    const at = path.startsWith(`${relative}/`) ? 0 : path.indexOf(`/${relative}/`) + 1;
    if (at === 0 && !path.startsWith(`${relative}/`)) continue;
    const folder = path.slice(0, at) + relative;
    return stateFolderAt(join(root, folder), folder);
  }
  if (!tasksDir) return undefined;
  for (const candidate of [join(tasksDir, relative), join(tasksDir, '..', relative)]) {
    try {
      if (statSync(candidate).isDirectory()) return stateFolderAt(candidate, candidate);
    } catch {
      // Not there: try the next place.
    }
  }
  return undefined;
}
