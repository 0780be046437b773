/**
 * An Inspect log as a `.eval` file, Inspect's own default format: a zip laid out as its
 * recorder writes one and its reader reads one (inspect_ai `log/_recorders/eval.py`):
 * `_journal/start.json` (version, eval, plan), one `samples/<id>_epoch_<n>.json` per sample,
 * `summaries.json` (a summary per sample), `reductions.json` (per-sample scores reduced over
 * epochs) when there is something to reduce, and `header.json` (the log without its samples),
 * which the reader takes over start.json. Entries are deflated; no new dependency.
 */
import { deflateRawSync } from 'node:zlib';

/** The log shape `exportInspectLogs` builds (only what the layout needs is typed). */
export interface InspectLogShape {
  version: number;
  eval: unknown;
  plan: unknown;
  samples: InspectSampleShape[];
  [field: string]: unknown;
}

/** A sample, as far as the summaries and reductions read it. */
export interface InspectSampleShape {
  id: string;
  epoch: number;
  input: string;
  target: string;
  messages: unknown[];
  scores: Record<string, { value: string | number; answer?: string }>;
  metadata: Record<string, unknown>;
  model_usage: Record<string, unknown>;
  role_usage: Record<string, unknown>;
  total_time: number;
  uuid: string;
}

/** The `.eval` archive of `log`. */
export function inspectEvalArchive(log: InspectLogShape): Buffer {
  const { samples, ...header } = log;
  const entries: [string, unknown][] = [
    ['_journal/start.json', { version: log.version, eval: log.eval, plan: log.plan }],
    ...samples.map((sample): [string, unknown] => [
      `samples/${sample.id}_epoch_${sample.epoch}.json`,
      sample,
    ]),
    ['summaries.json', samples.map(summary)],
  ];
  const reductions = reduce(samples);
  if (reductions.length) entries.push(['reductions.json', reductions]);
  entries.push(['header.json', header]);
  const names = new Set(entries.map(([name]) => name));
  if (names.size !== entries.length) {
    throw new Error(`an Inspect log would hold an entry twice (${entries.length - names.size})`);
  }
  return deflatedZip(entries.map(([name, value]) => [name, Buffer.from(JSON.stringify(value))]));
}

/** Inspect's `EvalSampleSummary` of one sample. */
function summary(sample: InspectSampleShape) {
  return {
    id: sample.id,
    epoch: sample.epoch,
    input: sample.input,
    target: sample.target,
    metadata: sample.metadata,
    scores: sample.scores,
    model_usage: sample.model_usage,
    role_usage: sample.role_usage,
    total_time: sample.total_time,
    message_count: sample.messages.length,
    uuid: sample.uuid,
    completed: true,
  };
}

/**
 * `matches_gold` per item, the mean over its epochs (reps) of C = 1 and I = 0, as Inspect's
 * default `mean` reducer reads C/I scores. The verdict (pass/fail, a label) is not averaged.
 */
function reduce(samples: readonly InspectSampleShape[]) {
  const byItem = new Map<string, number[]>();
  for (const sample of samples) {
    const value = sample.scores.matches_gold?.value;
    if (value !== 'C' && value !== 'I') continue;
    byItem.set(sample.id, [...(byItem.get(sample.id) ?? []), value === 'C' ? 1 : 0]);
  }
  if (byItem.size === 0) return [];
  const samplesOut = [...byItem].map(([id, values]) => ({
    sample_id: id,
    value: values.reduce((total, value) => total + value, 0) / values.length,
    history: [],
  }));
  return [{ scorer: 'matches_gold', reducer: 'mean', samples: samplesOut }];
}

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// 1980-01-01, the first date a zip can hold: the entries' times carry no meaning here.
const dosDate = (1 << 5) | 1;

/** A zip of deflated entries (no zip64: logs stay far below 4 GiB and 65535 entries). */
export function deflatedZip(files: [string, Buffer][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of files) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
