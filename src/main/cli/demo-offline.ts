/**
 * The demo without Docker: only the items whose environment needs no container (the web
 * substrate's offline snapshots, files and SQLite copies served in-process) are judged, and the
 * demo says which it skipped and why. The built-in filesystem, database, code and PostgreSQL
 * items replay the agent's commands and give the judge a shell: only a container does that
 * faithfully, so without Docker they are left out, never judged on a stand-in.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StudySpec } from '../../shared/study-spec';
import type { SuiteItem } from '../../shared/suite-format';
import type { CliIo } from './command';
import { unwrap, type LabSession } from './connection';
import { drawDirectionFigure, type DirectionBar } from './figure/direction-figure';
import { specNeedsDocker } from '../engine/machine';

/** The demo spec over the items that need no container, and the line saying what was left. */
export function offlineDemoSpec(
  spec: StudySpec,
  items: readonly SuiteItem[],
): { spec: StudySpec; skipped: string | null } {
  const served = items.filter((item) => !specNeedsDocker(item.environment));
  const left = items.filter((item) => specNeedsDocker(item.environment));
  const counts = new Map<string, number>();
  for (const item of left) counts.set(item.substrate, (counts.get(item.substrate) ?? 0) + 1);
  const parts = [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name} (${count})`);
  const skipped = left.length
    ? `Skipped without Docker: ${left.length} items of ${spec.suite} — ${parts.join(', ')}. ` +
      "They replay the agent's commands and give the judge a shell, which only a container " +
      'does faithfully. Start Docker and run cuelab demo again to judge them.'
    : null;
  const limit = spec.items.limit ?? served.length;
  return {
    spec: { ...spec, items: { ids: served.map((item) => item.id), limit } },
    skipped,
  };
}

/** The severity table's per-judge rows as figure bars (one group per judge, and arm if many). */
function directionBars(rows: readonly Record<string, unknown>[]): DirectionBar[] {
  const judgeRows = rows.filter((row) => row.scope === 'judge');
  const conditions = new Set(judgeRows.map((row) => String(row.condition)));
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  const side = (row: Record<string, unknown>, prefix: 'severity' | 'leniency') => ({
    pct: number(row[`${prefix}Pct`]),
    low: number(row[`${prefix}CiLow`]),
    high: number(row[`${prefix}CiHigh`]),
    gate: number(row[`${prefix}Gate`]) ?? 0,
  });
  return judgeRows.map((row) => ({
    label:
      conditions.size > 1 ? `${String(row.judge)} · ${String(row.condition)}` : String(row.judge),
    severity: side(row, 'severity'),
    leniency: side(row, 'leniency'),
  }));
}

/**
 * Draws the study's severity-vs-leniency figure as a PNG in the workspace's `figures` folder
 * and says where; the lab shows the same study's figures interactively.
 */
export async function writeDemoFigure(
  session: LabSession,
  studyId: string,
  io: CliIo,
): Promise<string | null> {
  const workspace = session.engine?.workspace.path;
  if (!workspace) return null;
  const table = unwrap(await session.api.reportTable({ studyId, table: 'severity' }));
  const bars = directionBars(table.rows);
  if (bars.length === 0) {
    io.out('No figure: the study has no per-judge severity rows.');
    return null;
  }
  const raster = drawDirectionFigure(bars, {
    title: 'Harmful flips by cue direction, per judge (App. D)',
    simulated: table.simulated,
  });
  const dir = join(workspace, 'figures');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${studyId}-severity-leniency.png`);
  writeFileSync(path, raster.png());
  io.out(`Figure: ${path} (${raster.width}×${raster.height} PNG)`);
  return path;
}
