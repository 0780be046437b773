/**
 * The streamed bundle export (export/bundle-stream.ts) on real workspaces: it opens with
 * openBundle to the tables the whole-study reader gives; a key planted in a message longer than
 * the pieces the file is written in is redacted; a study past the limit (lowered here, the
 * public default stays openBundle's) is refused with its name, size and the fix, leaving no
 * file, no partial file and the store as it was; opening is bounded however the file was cut.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { EngineError } from '../../src/main/engine/errors';
import { buildBundle, exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle, readBundle } from '../../src/main/engine/export/bundle-open';
import { registerTextFunctions } from '../../src/main/engine/store/text-blobs';
import { KEY, runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';

const MIB = 1024 * 1024;
const SHAPED = 'sk-proj-streamtest0123456789abcdef';

describe('streamed study bundles', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), files: makeTempDir() };
  let a: Engine;
  let b: Engine;
  let studyId: string;
  const stored = () =>
    createHash('sha256').update(JSON.stringify(buildBundle(engineStore(a), studyId).tables));

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    a = createEngine({ path: dirs.a.path, source: 'flag' });
    b = createEngine({ path: dirs.b.path, source: 'flag' });
    studyId = await runStudy(engineStore(a));
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    a.close();
    b.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  it('opens with openBundle to the very tables the whole-study reader gives', () => {
    const file = join(dirs.files.path, 'small.json.gz');
    const summary = exportBundle(engineStore(a), studyId, file);
    const whole = buildBundle(engineStore(a), studyId);
    const read = readBundle(file);
    expect(read.tables).toEqual(whole.tables);
    expect(read).toMatchObject({ studyId, schemaVersion: whole.schemaVersion, redacted: [] });
    expect(summary).toMatchObject({ reps: whole.tables.reps.length, redacted: [] });
    expect(summary.bytes).toBe(readFileSync(file).length);
    expect(readdirSync(dirs.files.path)).toEqual(['small.json.gz']);
    const opened = openBundle(engineStore(b), file);
    expect(opened).toMatchObject({ studyId, reps: whole.tables.reps.length });
  });

  it('redacts a key planted all along a message longer than the pieces the file is cut in', () => {
    // A raw connection, as an older CueLab would write: no write-time redaction.
    const raw = new Database(engineStore(a).path);
    registerTextFunctions(raw);
    const rep = raw
      .prepare('SELECT id FROM judge_reps WHERE study_id = ? LIMIT 1')
      .pluck()
      .get(studyId) as string;
    // About 9 MB: the file is gzipped in pieces of 4 MiB, so the key sits before, across and
    // after each piece's end wherever those fall.
    const line = `a log line that the judge printed, ${KEY} and ${SHAPED}\n`;
    const planted = Math.ceil((9 * MIB) / line.length);
    raw
      .prepare('UPDATE judge_messages SET content = ? WHERE rep_id = ? AND seq = 0')
      .run(line.repeat(planted), rep);
    raw.close();
    const file = join(dirs.files.path, 'long.json.gz');
    const summary = exportBundle(engineStore(a), studyId, file);
    expect(summary.redacted).toEqual(['ANTHROPIC_API_KEY']);
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    // Shorter once redacted (a marker is shorter than a key), still more than one 4 MiB piece.
    expect(text.length).toBeGreaterThan(6 * MIB);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(SHAPED);
    // The study's own transcripts hold a few markers already (redacted when they were stored).
    expect(text.split('[redacted:ANTHROPIC_API_KEY]').length - 1).toBeGreaterThanOrEqual(planted);
    expect(text.split('[redacted:key]').length - 1).toBeGreaterThanOrEqual(planted);
    expect(readBundle(file).tables.messages.length).toBe(
      buildBundle(engineStore(a), studyId).tables.messages.length,
    );
  });

  it('refuses a study past the limit, naming it, and leaves no file and the store as it was', () => {
    const before = stored().digest('hex');
    const folder = join(dirs.files.path, 'refused');
    mkdirSync(folder);
    const file = join(folder, 'big.json.gz');
    const refusal = (run: () => unknown): EngineError => {
      try {
        run();
      } catch (error) {
        return error as EngineError;
      }
      throw new Error('the export was not refused');
    };
    const bytes = refusal(() => exportBundle(engineStore(a), studyId, file, { maxBytes: MIB }));
    expect(bytes).toBeInstanceOf(EngineError);
    expect(bytes.message).toContain(`Study ${studyId} is too large for one study bundle`);
    expect(bytes.message).toMatch(/passed \d+\.\d MiB once decompressed after \d+ of \d+ rows/);
    expect(bytes.message).toContain('at most 1.0 MiB');
    expect(bytes.message).toContain(`cuelab export-inspect ${studyId}`);
    expect(readdirSync(folder)).toEqual([]);
    const rows = refusal(() => exportBundle(engineStore(a), studyId, file, { maxRows: 3 }));
    expect(rows.message).toMatch(/it has more than 3 rows, and a bundle may hold at most 3 rows/);
    expect(rows.message).toContain('Nothing was written');
    expect(readdirSync(folder)).toEqual([]);
    expect(stored().digest('hex')).toBe(before);
  });

  it('bounds opening by the bytes decompressed, over every gzip piece of the file', () => {
    const file = join(dirs.files.path, 'long.json.gz');
    expect(readFileSync(file).length).toBeLessThan(MIB);
    expect(() => readBundle(file, MIB)).toThrow(/larger than 1 MiB once decompressed/);
  });
});
