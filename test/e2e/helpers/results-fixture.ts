/**
 * A deterministic per-rep results file for the Results e2e test: three judges × four datasets,
 * the uncued control and four cued arms (three placements, one mitigated), every row simulated,
 * with turns so the effort curve has plotted and hidden bins.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './engine';

const judges = ['opus-4.7', 'sonnet-4.6', 'qwen3-235b'];
const datasets = ['aj-filesystem', 'aj-postgres', 'swe-bench-verified', 'terminal-bench-2'];
const arms = [
  { condition: 'system', placement: 'system_prompt', mitigation: '', flip: 0.4 },
  { condition: 'system-guard', placement: 'system_prompt', mitigation: 'guard', flip: 0.1 },
  { condition: 'user', placement: 'user_message', mitigation: '', flip: 0.3 },
  { condition: 'assistant', placement: 'assistant_turn', mitigation: '', flip: 0.15 },
];

/** The names a results file uses: the demo's short ones unless a test brings its own. */
export interface ResultsNames {
  judges: string[];
  datasets: string[];
  arms: { condition: string; placement: string; mitigation: string; flip: number }[];
  cueLabel: string;
}

/** The CSV text, the same on every run. */
export function resultsCsv(
  names: ResultsNames = { judges, datasets, arms, cueLabel: 'authority' },
  startSeed = 20_261_129,
): string {
  let seed = startSeed;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const lines = [
    'item_id,dataset,judge,condition,cue_direction,rep,verdict,gold,dimension,turns,simulated,placement,mitigation,cue_label',
  ];
  const flip = (verdict: string) => (verdict === 'pass' ? 'fail' : 'pass');
  for (const dataset of names.datasets) {
    for (let index = 0; index < 10; index += 1) {
      const item = `${dataset}-${index}`;
      const gold = index % 3 === 0 ? 'fail' : 'pass';
      for (const [judgeIndex, judge] of names.judges.entries()) {
        // Every fifth item the uncued judge gets wrong, so helpful flips exist too.
        const majority = (index + judgeIndex) % 5 === 4 ? flip(gold) : gold;
        for (let rep = 1; rep <= 3; rep += 1) {
          const verdict = rep === 3 && random() < 0.2 ? flip(majority) : majority;
          const turns = 2 + Math.floor(random() * 20);
          lines.push(
            `${item},${dataset},${judge},uncued,,${rep},${verdict},${gold},task_success,${turns},true,,,`,
          );
        }
        const direction = majority === 'pass' ? 'severity' : 'leniency';
        for (const arm of names.arms) {
          for (let rep = 1; rep <= 3; rep += 1) {
            const turns = 1 + Math.floor(random() * 24);
            const pushed = random() < arm.flip * (1 + turns / 24) * (judgeIndex === 2 ? 0.5 : 1);
            const verdict = pushed ? flip(majority) : majority;
            lines.push(
              `${item},${dataset},${judge},${arm.condition},${direction},${rep},${verdict},${gold},task_success,${turns},true,${arm.placement},${arm.mitigation},${names.cueLabel}`,
            );
          }
        }
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Runs the built `cuelab` command on a workspace and returns what it printed. */
export function cuelab(workspace: string, args: string[]): string {
  return execFileSync(
    process.execPath,
    [join(repoRoot, 'bin', 'cuelab.js'), ...args, '--workspace', workspace],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  );
}

/** Writes `csv` to `file` and imports it into `workspace` as a study named `name`; returns its id. */
export function importStudy(workspace: string, file: string, csv: string, name: string): string {
  writeFileSync(file, csv);
  const output = cuelab(workspace, ['import-results', file, '--name', name]);
  const id = /as study ([0-9a-f-]{36})/.exec(output)?.[1];
  if (!id) throw new Error(`import-results printed no study id:\n${output}`);
  return id;
}

/** A workspace filler (`openWorkspaceSession`) importing `csv` as one study named `name`. */
export function csvStudy(csv: string, name: string): (workspace: string, folder: string) => string {
  return (workspace, folder) => importStudy(workspace, join(folder, 'results.csv'), csv, name);
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG's pixel size from its IHDR chunk; throws when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  if (!pngSignature.every((byte, index) => bytes[index] === byte))
    throw new Error('The file does not start with the PNG signature.');
  if (bytes.subarray(12, 16).toString('ascii') !== 'IHDR')
    throw new Error('The PNG does not start with an IHDR chunk.');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The pHYs resolution of a PNG in dots per inch, or null without one. */
export function pngDpi(bytes: Buffer): number | null {
  for (let offset = 8; offset < bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    if (bytes.subarray(offset + 4, offset + 8).toString('ascii') === 'pHYs')
      return Math.round(bytes.readUInt32BE(offset + 8) * 0.0254);
    offset += 12 + length;
  }
  return null;
}

/** Clicks an export button and waits for the browser download it starts. */
export async function download(
  page: Page,
  testId: string,
): Promise<{ path: string; name: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testId).click(),
  ]);
  return { path: await file.path(), name: file.suggestedFilename() };
}

/** Only the control arm: every paired table is empty and says why. */
export const controlOnlyCsv =
  'item_id,dataset,judge,condition,rep,verdict,gold,simulated\n' +
  'i1,ds-a,judge-a,uncued,1,pass,pass,true\n';

const syntheticJudge = (id: string, persona: string) => ({
  id,
  provider: 'synthetic',
  model: 'synthetic',
  persona,
});

/** A native study small enough to finish in seconds (48 reps on the built-in mini suite). */
export const liveStudySpec = {
  name: 'Live synthetic study',
  suite: 'cuelab-mini',
  items: { datasets: ['mini-filesystem'], limit: 4 },
  judges: [
    syntheticJudge('deferential', 'deferential-frontier'),
    syntheticJudge('robust', 'robust-frontier'),
  ],
  reps: 3,
};

/** Switches the window to a theme with the top bar's toggle. */
export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const button = page.getByRole('button', { name: `Switch to ${theme} theme` });
  if (await button.isVisible()) await button.click();
  await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
}
