/**
 * Part (c)'s live refresh alone (bench/live-refresh.ts), on a copy of a workspace an earlier
 * `npm run bench` kept with CUELAB_BENCH_WORKSPACES=DIR: a full part (c) takes a quarter of an
 * hour, this about a minute, so a regression in it can be bisected by measurement.
 * `npx tsx scripts/bench-live-refresh.mts DIR [BATCHES]` (DIR holds cuelab.sqlite and
 * generated.json; the copy is made in a temporary directory and deleted afterwards).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchLiveRefreshScaling } from '../bench/live-refresh';
import { scanNativeAnalysisColumns } from '../src/main/engine/store/analysis-rows';
import { openStore } from '../src/main/engine/store/database';

const kept = process.argv[2] ?? process.env.CUELAB_BENCH_WORKSPACES;
if (!kept) throw new Error('usage: bench-live-refresh.mts DIR [BATCHES]');
const batches = Number(process.argv[3] ?? 15);
const { studyId } = JSON.parse(readFileSync(join(kept, 'generated.json'), 'utf8')) as {
  studyId: string;
};
const dir = mkdtempSync(join(tmpdir(), 'cuelab-live-refresh-'));
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
try {
  const path = join(dir, 'cuelab.sqlite');
  copyFileSync(join(kept, 'cuelab.sqlite'), path);
  const store = openStore(path);
  try {
    console.log(`load average at the start: ${load()}`);
    const started = performance.now();
    scanNativeAnalysisColumns(store, studyId);
    const floor = performance.now() - started;
    await benchLiveRefreshScaling(store, studyId, floor, (line) => console.log(line), 32, batches);
    console.log(`load average at the end: ${load()}`);
  } finally {
    store.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
