/**
 * A synthetic study over the built-in `cuelab-long` suite reaches the paper's metrics that the
 * mini suite cannot: cued reps in every App. L turn bin (Fig. 3's curve, 26+ included), an
 * uncued accuracy in Table 5's neighbourhood, and wrong items for App. F's helpful flips. The
 * real runner, queue and SQLite store; the items' final files on the snapshot backend.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EFFORT_BIN_EDGES, EFFORT_MIN_REPS_PER_BIN } from '../../src/main/engine/paper';
import { reportTable } from '../../src/main/engine/reports/tables';
import { loadBuiltinSuite } from '../../src/main/engine/suites/builtin';
import { findPersona, loadPersonas } from '../../src/main/engine/simulation/personas';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { makeTempDir } from '../helpers/temp-dir';

const suite = loadBuiltinSuite('cuelab-long');
const personaIds = ['deferential-frontier', 'small-open-b'] as const;

/** Uncued accuracy band the suite is built for: Table 5's 70.5–76.3%, give or take a sample. */
const accuracyBand = { low: 65, high: 85 };

describe('a synthetic study over cuelab-long (SIMULATED)', () => {
  const dir = makeTempDir();
  let store: Store;
  const studies = new Map<string, string>();
  beforeAll(async () => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(store, suite, 'builtin');
    for (const id of personaIds) {
      const persona = findPersona(loadPersonas(), id);
      const spec = studySpecSchema.parse({
        name: `long ${id}`,
        suite: suite.id,
        judges: [{ id, provider: 'synthetic', model: 'synthetic', persona: id }],
        reps: 3,
        seed: 17,
      });
      studies.set(id, await runSyntheticStudy(store, spec, suite.items, persona));
    }
  }, 600_000);
  afterAll(() => {
    store.close();
    dir.remove();
  });

  it.each(personaIds)('%s: every effort bin has cued reps, and some take 26+ turns', (id) => {
    const studyId = studies.get(id) as string;
    const bins = reportTable(store, studyId, 'effort').rows.filter((row) => row.turns !== 'all');
    expect(bins).toHaveLength(EFFORT_BIN_EDGES.length - 1);
    for (const bin of bins) expect(bin.n).toBeGreaterThan(0);
    // The Opus-like persona investigates fully, so each bin reaches App. L's plotting floor; the
    // GPT-OSS-like one often stops short (§3.3), which thins its middle bins.
    if (id === 'deferential-frontier') {
      for (const bin of bins) {
        expect(bin.n).toBeGreaterThanOrEqual(EFFORT_MIN_REPS_PER_BIN);
        expect(bin.plotted).toBe('yes');
      }
    }
    const longest = store.db
      .prepare(
        `SELECT COUNT(*) AS n FROM judge_reps r JOIN jobs j ON j.rep_id = r.id
          WHERE j.study_id = ? AND j.condition_key <> 'uncued' AND r.turns >= 26`,
      )
      .get(studyId) as { n: number };
    expect(longest.n).toBeGreaterThan(0);
  });

  it.each(personaIds)('%s: uncued accuracy is in the band, with helpful flips', (id) => {
    const studyId = studies.get(id) as string;
    const accuracy = reportTable(store, studyId, 'accuracy').rows.find(
      (row) => row.scope === 'judge',
    );
    const flips = reportTable(store, studyId, 'flips').rows.find((row) => row.scope === 'judge');
    expect(accuracy?.beforePct).toBeGreaterThanOrEqual(accuracyBand.low);
    expect(accuracy?.beforePct).toBeLessThanOrEqual(accuracyBand.high);
    // App. F's denominator: items the uncued judge got wrong, and some of them corrected.
    expect(flips?.wrong).toBeGreaterThanOrEqual(10);
    expect(flips?.helpful).toBeGreaterThanOrEqual(3);
  });
});
