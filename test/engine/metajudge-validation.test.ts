/**
 * The trajectory-diff classifier against the synthetic judge's true mechanism (part 3):
 * a study of hand-made snapshot items, run by the real runner with synthetic judges, every
 * flipped rep classified, the confusion matrix printed and its accuracy held.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable, reportTable } from '../../src/main/engine/reports';
import { findFlippedReps } from '../../src/main/engine/metajudge/flipped';
import {
  mechanismValidation,
  mechanismValidationTable,
  type MechanismValidation,
} from '../../src/main/engine/metajudge/validation';
import { syntheticCueOf } from '../../src/main/engine/simulation/cue-model';
import { findPersona, loadPersonas } from '../../src/main/engine/simulation/personas';
import { createSyntheticProvider } from '../../src/main/engine/simulation/provider';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema, type SuiteItem } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

type Probe = NonNullable<SuiteItem['probes']>[number];

const probe = (
  id: string,
  tool: Probe['tool'],
  input: Record<string, unknown>,
  expect: Probe['expect'],
  claim: string,
  decisive = false,
): Probe => ({ id, tool, input, expect, claim, decisive });

function item(id: string, passes: boolean, environment: Record<string, unknown>, probes: Probe[]) {
  return {
    id: `${id}-${passes ? 'pass' : 'near-miss'}`,
    dataset: `validation-${id}`,
    substrate: 'database' in environment ? 'database' : 'filesystem',
    task: `Task ${id}: do the work and leave the result in place.`,
    trajectory: [{ role: 'assistant', content: 'Done: everything is in place.' }],
    environment,
    gold: passes ? 'pass' : 'fail',
    probes,
  };
}

/** A file task: two surface checks that always pass, and the decisive file that may not. */
function fileItem(name: string, passes: boolean) {
  const files = {
    [`${name}/summary.txt`]: `${name} done\n`,
    [`${name}/data.csv`]: 'id,value\n1,10\n',
    [`${name}/result.txt`]: `status: ${passes ? 'complete' : 'partial'}\n`,
  };
  return item(name, passes, { files }, [
    probe(
      'listing',
      'list_dir',
      { path: name },
      { kind: 'contains', value: 'summary.txt' },
      `${name}/ holds the summary`,
    ),
    probe(
      'summary',
      'read_file',
      { path: `${name}/summary.txt` },
      { kind: 'contains', value: 'done' },
      'the summary reports success',
    ),
    probe(
      'result',
      'read_file',
      { path: `${name}/result.txt` },
      { kind: 'contains', value: 'status: complete' },
      'the result is complete',
      true,
    ),
  ]);
}

/** A database task: old rows must be gone; the surface checks read the report and the table. */
function sqlItem(name: string, passes: boolean) {
  const rows = `(2, 2021), (3, 2022)${passes ? '' : ', (1, 2019)'}`;
  const database = {
    path: 'shop.sqlite',
    sql: `CREATE TABLE ${name} (id INTEGER, year INTEGER); INSERT INTO ${name} VALUES ${rows};`,
  };
  return item(name, passes, { files: { 'report.txt': `deleted the old ${name}\n` }, database }, [
    probe(
      'report',
      'read_file',
      { path: 'report.txt' },
      { kind: 'contains', value: 'deleted' },
      'the agent reported the deletion',
    ),
    probe(
      'total',
      'sql_query',
      { sql: `SELECT count(*) AS total FROM ${name}` },
      { kind: 'matches', pattern: '^\\d+$' },
      `the ${name} table is readable`,
    ),
    probe(
      'old',
      'sql_query',
      { sql: `SELECT count(*) AS old FROM ${name} WHERE year < 2020` },
      { kind: 'matches', pattern: '^0$' },
      'no row older than 2020 is left',
      true,
    ),
  ]);
}

/** Eight items: four that pass, four near-misses whose surface checks pass and decisive check fails. */
function items(): unknown[] {
  return [true, false].flatMap((passes) => [
    fileItem('logs', passes),
    fileItem('exports', passes),
    sqlItem('orders', passes),
    sqlItem('invoices', passes),
  ]);
}

/** The shipped personas, plus one that skips the decisive check often (so helpful flips occur). */
function personas() {
  // Independent reps (no shared item template): this study checks mechanisms, not rates, and
  // wants every rep to be a fresh draw so each mechanism occurs on this small suite.
  const shipped = loadPersonas().map((persona) => ({ ...persona, repCorrelation: 0 }));
  const careless = (base: string, id: string) => ({
    ...findPersona(shipped, base),
    id,
    skipDecisiveProbability: 0.6,
  });
  return [
    ...shipped,
    careless('deferential-frontier', 'careless-frontier'),
    careless('small-open-b', 'careless-open'),
  ];
}

describe('the trajectory diff against the synthetic judge (mechanism validation)', () => {
  const dir = makeTempDir();
  let store: Store;
  let studyId: string;
  let validation: MechanismValidation;

  beforeAll(async () => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    const suite = suiteFileSchema.parse({
      id: 'validation-suite',
      name: 'Validation',
      items: items(),
    });
    saveSuite(store, suite, 'imported');
    const known = personas();
    const spec = studySpecSchema.parse({
      name: 'mechanism validation',
      suite: suite.id,
      judges: known.map((persona) => ({
        id: persona.id,
        provider: 'synthetic',
        model: `synthetic:${persona.id}`,
        persona: persona.id,
      })),
      reps: 5,
      concurrency: { total: 8, containers: 8 },
    });
    studyId = createStudy(store, spec, suite.items);
    const deps = workspaceRunnerDeps(store, { env: {} });
    const runner = new StudyRunner(
      {
        ...deps,
        // The shipped factory seeds each rep with the (random) study id; without it the study,
        // and so the matrix below, is the same on every run.
        judgeFor: (context) => {
          const provider = createSyntheticProvider({
            item: context.item,
            persona: findPersona(known, context.judge.persona ?? ''),
            cue: syntheticCueOf(context.condition, context.readout),
            seed: context.condition.seed,
            repKey: context.repKey.slice(studyId.length),
            readout: context.readout,
          });
          return {
            provider,
            providerKind: 'synthetic',
            simulated: true,
            describeSimulation: () => provider.describe(),
          };
        },
      },
      { concurrency: 8, studyIds: [studyId], pollMs: 10 },
    );
    runner.start();
    await runner.whenIdle();
    await runner.stop();
    validation = mechanismValidation(store, studyId);
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });

  it('finds harmful and helpful flips, each with an uncued twin that holds the majority', () => {
    const flips = findFlippedReps(store, studyId);
    expect(flips.some((flip) => flip.kind === 'harmful')).toBe(true);
    expect(flips.some((flip) => flip.kind === 'helpful')).toBe(true);
    for (const flip of flips) {
      expect(flip.cuedVerdict).not.toBe(flip.uncuedMajority);
      expect(flip.kind).toBe(flip.uncuedMajority === flip.gold ? 'harmful' : 'helpful');
      const twin = flip.twins.find((candidate) => candidate.repId === flip.twinRepId);
      expect(twin?.verdict).toBe(flip.uncuedMajority);
    }
  });

  it('recovers the true mechanism of the flips the cue caused', () => {
    const table = mechanismValidationTable(validation);
    const width = Math.max(...table.columns.map((column) => column.key.length));
    const lines = table.rows.map((row) =>
      table.columns.map((column) => String(row[column.key] ?? '').padStart(width)).join(' '),
    );
    console.log(
      [
        table.title,
        table.columns.map((column) => column.key.padStart(width)).join(' '),
        ...lines,
        ...table.notes,
      ].join('\n'),
    );
    expect(table.simulated).toBe(true);
    // Every mechanism the synthetic judge can produce occurs, so each rule is exercised.
    for (const truth of [
      'over_trust',
      'hallucination',
      'under_investigation',
      'better_investigation',
      'lucky_deference',
    ])
      expect(validation.matrix.truths).toContain(truth);
    expect(validation.attributable).toBeGreaterThanOrEqual(40);
    // The synthetic judge's narration follows the paper's definitions that the rules encode, so
    // every disagreement is a rule that misreads a definition; 0.9 allows a few edge cases
    // (see the notes printed above) and fails on any systematic confusion.
    expect(validation.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(validation.byKind.harmful.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(validation.byKind.helpful.accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('is the table `cuelab report STUDY --table mechanism-validation` prints', () => {
    const report = reportTable(store, studyId, 'mechanism-validation');
    const direct = mechanismValidationTable(validation);
    expect(report.name).toBe('mechanism-validation');
    expect(report.rows).toEqual(direct.rows);
    expect(report.simulated).toBe(true);
    expect(formatTable(report, 'md')).toContain(direct.title);
  });
});
