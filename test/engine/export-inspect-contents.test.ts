/**
 * What an Inspect export holds (real synthetic studies on a real SQLite workspace): one log per
 * judge × condition, the rep number as epoch and `eval.config.epochs`, every scorer in
 * `results.scores`, transcript events (model, tool, score), the revision and the SIMULATED
 * tag; a study made by `import-results` exports its results; a study whose jobs all failed says
 * so, with how many.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportInspectLogs } from '../../src/main/engine/export/inspect-log';
import { importResultsFile } from '../../src/main/engine/reports/import';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { version } from '../../package.json';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { deferring, suite } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { useTempStore } from '../helpers/temp-store';
import { readFileSync } from 'node:fs';

interface Log {
  eval: {
    model: string;
    config: { epochs?: number };
    revision?: { commit: string };
    metadata: { judge: string; condition: string };
  };
  tags: string[];
  results: { scores: { name: string; scored_samples: number }[] };
  samples: {
    id: string;
    epoch: number;
    messages: { role: string; content: string; tool_call_id?: string }[];
    scores: Record<string, { value: unknown }>;
    events: {
      event: string;
      result?: string;
      id?: string;
      function?: string;
      score?: { value: unknown };
    }[];
  }[];
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Log;

describe('the contents of an Inspect export', () => {
  const workspace = useTempStore();

  it('writes one log per judge × condition with epochs, scorers and transcript events', async () => {
    const file = suite();
    saveSuite(workspace.store(), file, 'imported');
    const judge = (id: string) => ({
      id,
      provider: 'synthetic',
      model: 'synthetic',
      persona: deferring.id,
    });
    const spec = studySpecSchema.parse({
      name: 'two judges',
      suite: file.id,
      judges: [judge('first'), judge('second')],
      reps: 2,
    });
    const studyId = await runSyntheticStudy(workspace.store(), spec, file.items, deferring);
    const written = exportInspectLogs(workspace.store(), studyId, join(workspace.path, 'native'));
    const logs = written.map((entry) => read(entry.file));
    const conditions = new Set(logs.map((log) => log.eval.metadata.condition));
    expect(conditions.size).toBeGreaterThanOrEqual(2);
    expect(logs).toHaveLength(2 * conditions.size);
    expect(new Set(logs.map((log) => log.eval.metadata.judge))).toEqual(
      new Set(['first', 'second']),
    );
    for (const log of logs) {
      expect(log.eval.config.epochs).toBe(2);
      expect(log.eval.revision?.commit).toBe(version);
      expect(log.tags).toContain('SIMULATED');
      expect(log.results.scores.map((score) => score.name)).toEqual(['verdict', 'matches_gold']);
      // One sample per rep: the item once per rep number.
      expect(log.samples.map((sample) => `${sample.id}#${sample.epoch}`).sort()).toEqual([
        'invoices#1',
        'invoices#2',
      ]);
      for (const sample of log.samples) {
        const kinds = sample.events.map((event) => event.event);
        expect(kinds.filter((kind) => kind === 'model').length).toBe(
          sample.messages.filter((message) => message.role === 'assistant').length,
        );
        expect(kinds).toContain('tool');
        expect(kinds.at(-1)).toBe('score');
        expect(sample.events.at(-1)?.score?.value).toBe(sample.scores.verdict?.value);
        // Each tool event carries the result its tool message holds (the verdict call has none:
        // submitting ends the loop).
        const tools = sample.events.filter((entry) => entry.event === 'tool');
        expect(tools.at(-1)?.function).toBe('submit_verdict');
        for (const event of tools.filter((entry) => entry.function !== 'submit_verdict')) {
          const result = sample.messages.find((message) => message.tool_call_id === event.id);
          expect(event.result).toBe(result?.content);
        }
      }
    }
  });

  it('exports a study made by import-results: results only, no transcript', () => {
    const fixture = join(__dirname, '..', 'fixtures', 'results', 'mini-results.csv');
    const summary = importResultsFile(workspace.store(), fixture, { name: 'imported mini' });
    const written = exportInspectLogs(
      workspace.store(),
      summary.studyId,
      join(workspace.path, 'imported'),
    );
    const logs = written.map((entry) => read(entry.file));
    const samples = logs.flatMap((log) => log.samples);
    expect(samples).toHaveLength(summary.reps);
    for (const log of logs) {
      expect(new Set(log.samples.map((sample) => `${sample.id}#${sample.epoch}`)).size).toBe(
        log.samples.length,
      );
    }
    for (const sample of samples) {
      expect(sample.messages).toEqual([]);
      expect(['pass', 'fail']).toContain(sample.scores.verdict?.value);
    }
    expect(samples.some((sample) => sample.scores.matches_gold !== undefined)).toBe(true);
  });

  it('says a study whose jobs all failed has nothing to export, and how many failed', async () => {
    // No probes and no gold: the synthetic judge refuses every rep of this item.
    const file = suiteFileSchema.parse({
      ...{ id: 'unjudgeable', name: 'Unjudgeable' },
      items: [
        {
          ...{ id: 'no-gold', dataset: 'imported', substrate: 'filesystem' },
          task: 'Do the task.',
          trajectory: [{ role: 'assistant', content: 'Done.' }],
          environment: { files: {} },
        },
      ],
    });
    saveSuite(workspace.store(), file, 'imported');
    const spec = studySpecSchema.parse({
      name: 'all failed',
      suite: file.id,
      judges: [{ id: 'sim', provider: 'synthetic', model: 'synthetic', persona: deferring.id }],
      reps: 1,
    });
    const studyId = await runSyntheticStudy(workspace.store(), spec, file.items, deferring);
    const failed = workspace
      .store()
      .db.prepare("SELECT count(*) AS n FROM jobs WHERE study_id = ? AND state = 'failed'")
      .get(studyId) as { n: number };
    expect(failed.n).toBeGreaterThan(0);
    expect(() =>
      exportInspectLogs(workspace.store(), studyId, join(workspace.path, 'failed')),
    ).toThrow(
      `Study ${studyId} has nothing to export: all ${failed.n} of its job(s) failed without a rep.`,
    );
  });
});
