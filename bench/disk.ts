/**
 * Part (c), disk: bytes per rep of the generated paper-scale workspace against the target
 * (≤ 8 KB), with where the bytes are (SQLite's dbstat, per table and index) and how much the
 * shared texts take (store/text-blobs.ts). Measured on the closed, checkpointed file, as a
 * researcher's disk would hold it.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';

/** The target of the bench: at most this many bytes of workspace file per rep. */
export const TARGET_BYTES_PER_REP = 8 * 1024;

/** What the paper-scale workspace takes on disk. */
export interface DiskResult {
  fileBytes: number;
  reps: number;
  bytesPerRep: number;
  targetBytesPerRep: number;
  meetsTarget: boolean;
  /** The largest tables and indexes, bytes per rep each. */
  largest: { name: string; bytesPerRep: number }[];
  /** Distinct long texts stored, and their compressed bytes per rep. */
  blobs: { count: number; bytesPerRep: number };
}

/** Measures the workspace file at `path` (closed, WAL checkpointed) holding `reps` reps. */
export function measureDisk(path: string, reps: number): DiskResult {
  const fileBytes = statSync(path).size;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare<[], { name: string; bytes: number }>(
        'SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 5',
      )
      .all();
    const blobs = db
      .prepare<[], { count: number; bytes: number | null }>(
        'SELECT count(*) AS count, sum(length(body)) AS bytes FROM text_blobs',
      )
      .get();
    const perRep = (bytes: number) => Math.round(bytes / reps);
    const bytesPerRep = perRep(fileBytes);
    return {
      fileBytes,
      reps,
      bytesPerRep,
      targetBytesPerRep: TARGET_BYTES_PER_REP,
      meetsTarget: bytesPerRep <= TARGET_BYTES_PER_REP,
      largest: tables.map((table) => ({ name: table.name, bytesPerRep: perRep(table.bytes) })),
      blobs: { count: blobs?.count ?? 0, bytesPerRep: perRep(blobs?.bytes ?? 0) },
    };
  } finally {
    db.close();
  }
}

/** The bench's lines for it. */
export function printDisk(disk: DiskResult): string[] {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
  return [
    `  disk: ${kb(disk.bytesPerRep)} per rep (${(disk.fileBytes / 2 ** 20).toFixed(0)} MB for ` +
      `${disk.reps.toLocaleString('en-US')} reps; target ≤ ${kb(disk.targetBytesPerRep)}: ` +
      `${disk.meetsTarget ? 'met' : 'MISSED'})`,
    `    largest: ${disk.largest.map((entry) => `${entry.name} ${entry.bytesPerRep} B`).join(', ')}; ` +
      `${disk.blobs.count.toLocaleString('en-US')} distinct long texts, ${disk.blobs.bytesPerRep} B/rep`,
  ];
}
