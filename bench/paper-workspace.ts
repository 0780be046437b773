/**
 * Part (c), generation: a workspace at the paper's scale written straight into SQLite. One
 * completed study: four judges × 980 items (the five datasets at Table 6's sizes) × six
 * conditions × 3 reps = 70,560 judge reps with about 30 tool calls each, their jobs, the uncued
 * majorities, and a diff-classifier mechanism label on every flipped rep (paper-design.ts has
 * the verdict and label distributions). Arms get 2–1 splits and invalid reps now and then, so
 * the majority rule is exercised.
 *
 * Written with prepared statements in one transaction. Not generated: judge_messages and
 * judge_turns (no report reads them; they would roughly triple the row count).
 */
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type { JudgeEnvironment } from '../src/main/engine/contract/environment';
import { TABLE_6 } from '../src/main/engine/paper/numbers';
import { prepareRep } from '../src/main/engine/judge/prepare';
import { buildJudgePrompt } from '../src/main/engine/judge/prompt';
import { seededRandom, type Random } from '../src/main/engine/random';
import type { StudyCondition } from '../src/main/engine/runner/conditions';
import { expandConditions, uncuedKey } from '../src/main/engine/runner/conditions';
import { openStore } from '../src/main/engine/store/database';
import { compactTextColumn, type TextColumn } from '../src/main/engine/store/rep-text-columns';
import { repConditionSchema } from '../src/shared/rep-condition';
import type { StudyJudge, StudySpec } from '../src/shared/study-spec';
import { suiteItemSchema } from '../src/shared/suite-format';
import { now } from './measure';
import {
  cellPlan,
  mechanismLabel,
  other,
  paperItems,
  paperScaleSpec,
  type Outcome,
  type PaperItem,
} from './paper-design';
import { toolCallRows, type ToolCallWriter } from './tool-calls';

/** What was generated, and how long it took. */
export interface GeneratedWorkspace {
  path: string;
  studyId: string;
  items: number;
  judges: number;
  conditions: number;
  reps: number;
  toolCalls: number;
  labels: number;
  generationMs: number;
  rowsPerSecond: number;
  fileBytes: number;
}

const studyId = 'paper-scale';
const suiteId = 'paper-scale';
const clock = Date.parse('2026-05-01T00:00:00Z');

const stubEnvironment: JudgeEnvironment = {
  capabilities: { shell: true, files: true, sql: false },
  description: 'A Linux container holding the final state of the agent environment.',
  exec: () => Promise.reject(new Error('generated')),
  readFile: () => Promise.reject(new Error('generated')),
  listDir: () => Promise.reject(new Error('generated')),
  sqlQuery: () => Promise.reject(new Error('generated')),
};

interface PromptTemplate {
  system: string;
  tools: string;
  /** The two texts as the store writes them: '' and their blob ids (store/rep-text-columns.ts). */
  systemColumn?: TextColumn;
  toolsColumn?: TextColumn;
  cueSpans: string;
  record: Record<string, unknown>;
}

/** The real system prompt, tools and condition record of each condition × direction. */
function promptTemplates(spec: StudySpec, conditions: readonly StudyCondition[]) {
  const item = suiteItemSchema.parse({
    id: 'template',
    dataset: 'template',
    substrate: 'code',
    task: 'Fix the failing test in the repository.',
    trajectory: [
      { role: 'user', content: 'Fix the failing test in the repository.' },
      { role: 'assistant', content: 'Patched the parser; the test passes now.' },
    ],
  });
  const templates = new Map<string, PromptTemplate>();
  for (const condition of conditions) {
    for (const direction of ['', 'severity', 'leniency'] as const) {
      if ((condition.cue === null) !== (direction === '')) continue;
      const repCondition = repConditionSchema.parse({
        dimension: spec.dimension,
        seed: spec.seed,
        mitigations: condition.mitigations,
        placement: condition.placement ?? 'system',
        ...(condition.cue ? { cue: condition.cue, direction } : {}),
      });
      const prepared = prepareRep(item, [], repCondition, stubEnvironment);
      const prompt = buildJudgePrompt(prepared.input);
      templates.set(`${condition.key}/${direction}`, {
        system: prompt.system,
        tools: JSON.stringify(prompt.tools),
        cueSpans: JSON.stringify(prompt.cueSpans),
        record: prepared.record,
      });
    }
  }
  return templates;
}

/** The prepared inserts and running counts of one generation. */
class Writer {
  reps = 0;
  toolCalls = 0;
  labels = 0;
  private readonly rep: Database.Statement;
  private readonly job: Database.Statement;
  private readonly label: Database.Statement;
  private readonly calls: ToolCallWriter;

  constructor(
    db: Database.Database,
    private readonly random: Random,
    private readonly templates: Map<string, PromptTemplate>,
  ) {
    this.rep = db.prepare(
      `INSERT INTO judge_reps (id, study_id, suite_id, item_id, provider, model, simulated,
         condition_json, outcome, verdict_json, final_verdict_json, verdict_source, system_prompt,
         system_prompt_blob, tools_json, tools_json_blob, cue_spans_json, input_tokens,
         output_tokens, cost_usd, tool_results, turns, duration_ms, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.job = db.prepare(
      `INSERT INTO jobs (study_id, condition_key, item_id, judge_id, rep, direction, state,
         attempts, rep_id, duration_ms, created_at, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, 'done', 1, ?, ?, ?, ?)`,
    );
    this.label = db.prepare(
      `INSERT INTO mechanism_labels (rep_id, source, label, rationale, created_at)
       VALUES (?, 'diff', ?, ?, ?)`,
    );
    this.calls = toolCallRows(
      db.prepare(
        `INSERT INTO judge_tool_calls (rep_id, seq, turn, call_id, name, input_json, output,
           is_error, duration_ms, result_number, stop_directive)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      random,
    );
  }

  /**
   * The reps of one arm. Their majority is `majority`; one arm in ten has a 2–1 split and one in
   * fifty an invalid rep (never both). Returns the arm's valid reps.
   */
  arm(
    item: PaperItem,
    judge: StudyJudge,
    condition: StudyCondition,
    reps: number,
    arm: {
      direction: '' | 'severity' | 'leniency';
      majority: Outcome;
      uncued: Outcome;
      flips: boolean;
    },
  ): number {
    const { random } = this;
    const template = this.templates.get(`${condition.key}/${arm.direction}`);
    if (!template) throw new Error(`no prompt for ${condition.key}/${arm.direction}`);
    const noise = random();
    const oddRep = 1 + Math.floor(random() * reps);
    let valid = 0;
    for (let rep = 1; rep <= reps; rep += 1) {
      const odd = rep === oddRep;
      const invalid = odd && noise >= 0.1 && noise < 0.12;
      const verdict = odd && noise < 0.1 ? other(arm.majority) : arm.majority;
      const turns = Math.max(4, 8 + Math.floor(random() * 30) - (arm.flips ? 5 : 0));
      const calls = Math.max(1, Math.round(turns * 1.33));
      const id = randomUUID();
      const createdAt = new Date(clock + this.reps * 1000).toISOString();
      const finalVerdict = invalid
        ? null
        : JSON.stringify({
            kind: 'binary',
            outcome: verdict,
            confidence: 0.6 + Math.floor(random() * 36) / 100,
            rationale: `Checked the files and the test output over ${turns} turns; the task is ${verdict === 'pass' ? 'done' : 'not done'}.`,
          });
      const inputTokens = turns * (4000 + turns * 150);
      const outputTokens = turns * 60;
      this.rep.run(
        id,
        studyId,
        suiteId,
        item.id,
        judge.provider,
        judge.model,
        JSON.stringify({
          ...template.record,
          conditionKey: condition.key,
          judgeId: judge.id,
          rep,
          budget: { soft: 40, hardCap: 120 },
        }),
        invalid ? (noise < 0.11 ? 'invalid_verdict' : 'budget_exhausted') : 'verdict',
        finalVerdict,
        finalVerdict,
        invalid ? null : 'submit_verdict',
        template.systemColumn?.text ?? template.system,
        template.systemColumn?.blob ?? null,
        template.toolsColumn?.text ?? template.tools,
        template.toolsColumn?.blob ?? null,
        template.cueSpans,
        inputTokens,
        outputTokens,
        (inputTokens * 3 + outputTokens * 15) / 1_000_000,
        calls,
        turns,
        turns * 4000,
        createdAt,
      );
      this.toolCalls += this.calls.write(id, this.reps, calls, turns);
      this.job.run(
        studyId,
        condition.key,
        item.id,
        judge.id,
        rep,
        arm.direction,
        id,
        turns * 4000,
        createdAt,
        createdAt,
      );
      if (!invalid) valid += 1;
      // App. H: every cued rep that differs from the uncued majority is a flip of its own.
      if (arm.direction !== '' && !invalid && verdict !== arm.uncued) {
        const kind = arm.uncued === item.gold ? 'harmful' : 'helpful';
        this.label.run(id, mechanismLabel(kind, random), `generated ${kind} flip`, createdAt);
        this.labels += 1;
      }
      this.reps += 1;
    }
    return valid;
  }
}

/**
 * Generates the workspace at `path` (a new file); `itemStride` N > 1 keeps every Nth item (by
 * position, so every dataset stays), for a quick run at 1/N of the scale.
 */
export function generatePaperWorkspace(path: string, itemStride = 1): GeneratedWorkspace {
  const started = now();
  const store = openStore(path);
  const random = seededRandom(17, 'bench', 'paper-scale');
  const spec = paperScaleSpec(suiteId);
  const conditions = expandConditions(spec);
  const items = paperItems(random).filter((_, position) => position % itemStride === 0);
  const db = store.db;
  const templates = promptTemplates(spec, conditions);
  for (const template of templates.values()) {
    template.systemColumn = compactTextColumn(store, template.system);
    template.toolsColumn = compactTextColumn(store, template.tools);
  }
  const writer = new Writer(db, random, templates);
  let majorities = 0;

  db.transaction(() => {
    const stamp = new Date(clock).toISOString();
    db.prepare(
      `INSERT INTO studies (id, name, status, spec_json, simulated, created_at, updated_at)
       VALUES (?, ?, 'completed', ?, 0, ?, ?)`,
    ).run(studyId, spec.name, JSON.stringify(spec), stamp, stamp);
    const insertItem = db.prepare(
      'INSERT INTO study_items (study_id, item_id, position, dataset, gold) VALUES (?, ?, ?, ?, ?)',
    );
    items.forEach((item, position) =>
      insertItem.run(studyId, item.id, position, item.dataset, item.gold),
    );
    const insertCondition = db.prepare(
      'INSERT INTO study_conditions (study_id, key, position, label, body_json) VALUES (?, ?, ?, ?, ?)',
    );
    conditions.forEach((condition, position) =>
      insertCondition.run(
        studyId,
        condition.key,
        position,
        condition.label,
        JSON.stringify(condition),
      ),
    );
    const insertMajority = db.prepare(
      `INSERT INTO study_majorities (study_id, item_id, judge_id, majority, valid_reps)
       VALUES (?, ?, ?, ?, ?)`,
    );

    for (const cell of TABLE_6) {
      const judge = spec.judges.find((entry) => entry.id === cell.judge.toLowerCase());
      if (!judge) throw new Error(`no judge for ${cell.judge}`);
      const cellItems = items.filter((item) => item.dataset === cell.dataset);
      const plan = cellPlan(cell, cellItems.length, conditions, random);
      cellItems.forEach((item, index) => {
        const uncued = plan.correct.has(index) ? item.gold : other(item.gold);
        for (const condition of conditions) {
          const flips = plan.flips.get(condition.key)?.has(index) ?? false;
          const cued = condition.key !== uncuedKey;
          const direction = !cued ? '' : uncued === 'pass' ? 'severity' : 'leniency';
          const majority = flips ? other(uncued) : uncued;
          const valid = writer.arm(item, judge, condition, spec.reps, {
            direction,
            majority,
            uncued,
            flips,
          });
          if (!cued) {
            insertMajority.run(studyId, item.id, judge.id, uncued, valid);
            majorities += 1;
          }
        }
      });
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  const generationMs = now() - started;
  const rows =
    1 +
    items.length +
    conditions.length +
    majorities +
    writer.reps * 2 +
    writer.toolCalls +
    writer.labels;
  return {
    path,
    studyId,
    items: items.length,
    judges: spec.judges.length,
    conditions: conditions.length,
    reps: writer.reps,
    toolCalls: writer.toolCalls,
    labels: writer.labels,
    generationMs: Math.round(generationMs),
    rowsPerSecond: Math.round(rows / (generationMs / 1000)),
    fileBytes: statSync(path).size,
  };
}
