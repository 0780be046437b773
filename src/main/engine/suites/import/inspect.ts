/**
 * Inspect AI logs: `.eval` (a zip of `header.json` and `samples/<id>_epoch_<n>.json`) and
 * `.json` (one object with `eval` and `samples`). Each sample becomes an item: its messages are
 * the trajectory, its first score the gold label. The sample's `target`, `scores`, `metadata`
 * and `output` are graders' business and never reach the item beyond that label.
 */
import { z } from 'zod';
import type { ImportedItem, ImportContext, Importer } from './types';
import { convertMessages, contentText, firstUserText } from './messages';
import { sourceActions } from './step-count';
import { parseJson, parseWith } from './files';
import { jsonErrorMessage } from '../../input-limits';
import { ImportProblem } from './types';
import { ArchiveRefused, readZip, type ZipEntry } from './zip';

const sampleSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  epoch: z.number().int().optional(),
  target: z.unknown().optional(),
  metadata: z.looseObject({ cuelab_rep: z.string().optional() }).nullable().optional(),
  input: z.unknown().optional(),
  messages: z.array(z.unknown()).min(1, 'the sample has no messages'),
  scores: z
    .record(z.string(), z.looseObject({ value: z.unknown() }))
    .nullable()
    .optional(),
});

const logSchema = z.looseObject({
  eval: z.looseObject({
    task: z.string().min(1),
    metadata: z.looseObject({ cuelab_study: z.string().optional() }).nullable().optional(),
    model: z.string().optional(),
    sandbox: z.unknown().optional(),
  }),
  samples: z.array(z.unknown()).optional(),
});

/** Reads Inspect AI logs; one unit (a log file) yields an item per sample. */
export const inspectImporter: Importer = {
  format: 'inspect',
  units: (context) =>
    context.files.filter(
      (path) =>
        path.endsWith('.eval') ||
        (path.endsWith('.json') &&
          !path.endsWith('.traj.json') &&
          !reservedJson.has(path.split('/').pop() ?? '') &&
          looksLikeLog(context, path)),
    ),
  read(unit, context) {
    const { header, samples, digest } = unit.endsWith('.eval')
      ? readEval(context, unit)
      : readJsonLog(context, unit);
    const log = parseWith(logSchema, header, unit);
    const items: (ImportedItem | ImportProblem)[] = [];
    let index = 0;
    // One sample at a time: its JSON is parsed, made an item and dropped before the next is
    // inflated, so memory holds one sample's text, never the archive's.
    for (const sample of samples) {
      const where = `${unit}: samples.${index}`;
      index += 1;
      try {
        const value = parseWith(sampleSchema, sample.value(), `${unit}#${sample.name}`);
        cueLabRepeat(context, log, value, where);
        items.push(sampleItem(value, log, unit, digest, where));
      } catch (error) {
        if (error instanceof ImportProblem) items.push(error);
        else if (error instanceof ArchiveRefused)
          throw new ImportProblem(unit, `refused: ${error.message}; nothing of it was imported`);
        else throw error;
      }
    }
    if (index === 0) throw new ImportProblem(unit, 'samples: the log has no samples');
    return items;
  },
};

// Files of other formats that are JSON too; a log is never named like these.
const reservedJson = new Set([
  'meta.json',
  'messages.json',
  'result.json',
  'results.json',
  'report.json',
  'preds.json',
  'trajectory.json',
  'config.json',
]);

function looksLikeLog(context: ImportContext, path: string): boolean {
  const head = context.read(path).text.slice(0, 2000);
  return /"eval"\s*:/.test(head) && /"version"\s*:/.test(head);
}

/** A sample of a log, read when asked for (an `.eval` inflates it then). */
interface LazySample {
  name: string;
  value(): unknown;
}

function readJsonLog(context: ImportContext, unit: string) {
  const file = context.read(unit);
  const parsed = parseJson(file) as { samples?: unknown[] };
  const samples: LazySample[] = (Array.isArray(parsed.samples) ? parsed.samples : []).map(
    (value, index) => ({ name: `samples.${index}`, value: () => value }),
  );
  return { header: parsed, samples, digest: file.sha256 };
}

/**
 * An Inspect sample is one agent run's messages: tens of MiB at the most in real logs. Its JSON
 * is parsed whole, which costs several times its size, so one sample is held to 64 MiB.
 */
export const maxSampleBytes = 64 * 1024 * 1024;

function readEval(context: ImportContext, unit: string) {
  // A binary zip: read as bytes, not through the text reader.
  const { bytes, sha256: digest } = context.readBytes(unit);
  let entries: ZipEntry[];
  try {
    entries = readZip(bytes, { maxEntryBytes: maxSampleBytes });
  } catch (error) {
    const refused = error instanceof ArchiveRefused ? 'refused: ' : '';
    throw new ImportProblem(unit, `${refused}${(error as Error).message}`);
  }
  const json = (entry: ZipEntry): unknown => {
    let text: string;
    try {
      text = entry.read().toString('utf8');
    } catch (error) {
      if (error instanceof ArchiveRefused) throw error;
      throw new ImportProblem(`${unit}#${entry.name}`, (error as Error).message);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ImportProblem(`${unit}#${entry.name}`, jsonErrorMessage(error));
    }
  };
  const headerEntry = entries.find((candidate) => candidate.name === 'header.json');
  if (!headerEntry) throw new ImportProblem(unit, 'header.json: missing from the archive');
  let header: unknown;
  try {
    header = json(headerEntry);
  } catch (error) {
    if (error instanceof ArchiveRefused) throw new ImportProblem(unit, `refused: ${error.message}`);
    throw error;
  }
  const samples: LazySample[] = entries
    .filter((entry) => /^samples\/[^/]+\.json$/.test(entry.name))
    .map((entry) => ({ name: entry.name, value: () => json(entry) }));
  return { header, samples, digest };
}

/** The CueLab study items already taken, per import. */
const cueLabItems = new WeakMap<ImportContext, Set<string>>();

/**
 * A log CueLab exported holds one sample per rep (every judge, condition and rep number) of
 * the same items; the item is imported once, from the first rep met, and the others are
 * skipped with the reason.
 */
function cueLabRepeat(
  context: ImportContext,
  log: z.output<typeof logSchema>,
  sample: z.output<typeof sampleSchema>,
  where: string,
): void {
  const study = log.eval.metadata?.cuelab_study;
  if (!study || !sample.metadata?.cuelab_rep) return;
  const taken = cueLabItems.get(context) ?? new Set<string>();
  cueLabItems.set(context, taken);
  const key = `${study}/${String(sample.id)}`;
  if (taken.has(key)) {
    throw new ImportProblem(
      where,
      `another rep of item ${String(sample.id)} of CueLab study ${study}: the item is imported once`,
    );
  }
  taken.add(key);
}

function sampleItem(
  sample: z.output<typeof sampleSchema>,
  log: z.output<typeof logSchema>,
  unit: string,
  digest: string,
  where: string,
): ImportedItem {
  const trajectory = convertMessages(sample.messages, where);
  const task =
    firstUserText(trajectory) ?? (sample.input !== undefined ? contentText(sample.input) : '');
  if (!task || task === '...') throw new ImportProblem(where, 'input: the sample has no task text');
  // CueLab's own export: each sample is a judge's rep of an item, its target the item's gold.
  const gold = sample.metadata?.cuelab_rep
    ? goldOf(sample.target === 'pass' ? 'C' : sample.target === 'fail' ? 'I' : undefined)
    : goldOf(Object.values(sample.scores ?? {})[0]?.value);
  const epoch = sample.epoch ?? 1;
  return {
    item: {
      id: `${log.eval.task}-${String(sample.id)}${epoch > 1 && !sample.metadata?.cuelab_rep ? `-epoch${epoch}` : ''}`,
      dataset: `inspect-${log.eval.task}`,
      substrate: 'terminal',
      task,
      trajectory,
      environment: { files: {}, shell: false },
      ...(gold ? { gold } : {}),
      provenance: {
        source: unit,
        format: 'inspect',
        sha256: digest,
        instance: `${String(sample.id)}#${epoch}`,
        ...(log.eval.model ? { agent: log.eval.model } : {}),
      },
      note: log.eval.sandbox
        ? 'trajectory only: the log names a sandbox whose files are not in the log'
        : 'trajectory only: the log has no sandbox',
    },
    flags: trajectory.some((message) => message.role === 'assistant')
      ? []
      : ['agent-never-ran: the sample has no assistant turn'],
    stepCheck: { source: sourceActions(sample.messages), what: 'tool calls' },
  };
}

/** Inspect's score values: C/I (correct/incorrect), booleans, 1/0. Anything else: no label. */
function goldOf(value: unknown): 'pass' | 'fail' | undefined {
  if (value === 'C' || value === true || value === 1) return 'pass';
  if (value === 'I' || value === false || value === 0) return 'fail';
  return undefined;
}
