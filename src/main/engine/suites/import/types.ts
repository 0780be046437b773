/**
 * The shapes every importer shares: a folder of a stranger's files goes in, suite
 * items with provenance come out, and each file that could not become an item says why.
 */
import type { ImportFormat, SuiteItem } from '../../../../shared/suite-format';

/** One file read from the folder being imported. */
export interface SourceFile {
  /** Relative to the import root, with "/" separators. */
  path: string;
  text: string;
  sha256: string;
}

/** What the user chose on the command line or in the window. */
export interface ImportOptions {
  /** Folder of task definitions (Terminal-Bench, Harbor, MCPMark) when the run folder lacks them. */
  tasksDir?: string;
  /** Longest tool output the judge sees whole; default 4000 characters. */
  toolOutputLimit: number | 'unbounded';
  /** Import runs flagged as broken (e.g. the agent never ran) instead of skipping them. */
  keepFlagged: boolean;
}

/** Read access to the folder being imported, confined to it. */
export interface ImportContext {
  /** Every regular file under the root (relative paths), in sorted order. */
  files: readonly string[];
  /** Reads a file under the root (size-capped); throws an ImportProblem naming it. */
  read(path: string): SourceFile;
  /** The same, as bytes (binary formats such as Inspect's zip logs). */
  readBytes(path: string): { bytes: Buffer; sha256: string };
  /** Whether `path` (relative) is one of `files`. */
  has(path: string): boolean;
  /**
   * A task folder's files, from the run folder or `tasksDir`, read-only and size-capped. When
   * the run folder holds several of that name, the one nearest `near` (the run's file) wins.
   */
  task(name: string, marker: string, near?: string): TaskFolder | undefined;
  /**
   * A folder of environment state a harness ships beside its tasks (MCPMark's
   * `test_environments/<category>`, `postgres_state`): `relative` under the import root (at any
   * depth), else under `tasksDir` or the folder holding it. Nothing in it is a grader's file.
   */
  state(relative: string): StateFolder | undefined;
  options: ImportOptions;
}

/** A task definition folder (e.g. a Terminal-Bench task) found for a run. */
export interface TaskFolder {
  /** Shown in provenance notes; absolute or relative to the import root. */
  label: string;
  /** Reads a file of the task (relative to the task folder), or undefined when absent. */
  read(path: string): string | undefined;
  /** Every regular file of the task that is not a grader's (relative, "/" separators), sorted. */
  files(): string[];
  /** A file's bytes with the same rules as `read`, or undefined. */
  readBytes(path: string): Buffer | undefined;
}

/** A folder of environment state: every file in it, as bytes, confined and size-capped. */
export interface StateFolder {
  /** Shown in notes; relative to the import root, or absolute. */
  label: string;
  /** Every regular file under the folder (relative, "/" separators), sorted. */
  files(): string[];
  /** A file's bytes, or undefined when absent or too large. */
  readBytes(path: string): Buffer | undefined;
}

/** An item an importer made, before ids are made unique and the suite is assembled. */
export interface ImportedItem {
  /** Unparsed item (the suite schema checks it); `id` may still collide with another's. */
  item: Omit<SuiteItem, 'environment' | 'dimensions'> & {
    environment?: Partial<SuiteItem['environment']>;
  };
  /** Things wrong with the run; flagged items are skipped unless `keepFlagged`. */
  flags: string[];
  /** The disk the task asked for (MiB): shown, not enforced (Docker here has no disk quota). */
  storageMb?: number;
  /**
   * The count check: how many agent actions (commands, tool calls) the source shows, and how
   * many the item keeps (default: the trajectory's tool calls and text actions). Fewer kept
   * than shown is a warning in the summary: the judge would not see the rest.
   */
  stepCheck?: { source: number; stored?: number; what: string };
}

/** A file that did not become an item, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** One format's reader. */
export interface Importer {
  format: ImportFormat;
  /** Files under the root this format reads as one run each (its "units"). */
  units(context: ImportContext): string[];
  /**
   * Reads one unit; throws ImportProblem when it cannot. A unit holding several runs (an
   * Inspect log's samples) returns a list, with a problem in place of each unreadable run.
   */
  read(unit: string, context: ImportContext): ImportedItem | (ImportedItem | ImportProblem)[];
}

/** A problem with one file: printed as `path: problem`. */
export class ImportProblem extends Error {
  readonly path: string;
  readonly problem: string;

  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = 'ImportProblem';
    this.path = path;
    this.problem = problem;
  }
}
