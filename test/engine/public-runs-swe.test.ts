/**
 * SWE-bench-style runs in the layouts public harnesses write (mini-swe-agent, SWE-agent 1.1,
 * the SWE-bench harness, sb-cli): gold found in every layout by the instance id the report
 * holds, runs without gold named, environments read from the run (image, docker_args limits,
 * dataset), and a run copied twice imported once.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importRuns } from '../../src/main/engine/suites/import';
import { makeTempDir } from '../helpers/temp-dir';

const fixtures = join(__dirname, '..', 'fixtures', 'import');
const miniTrajectory = (iid: string) =>
  join(fixtures, 'mini-swe-agent', 'run', 'trajs', iid, `${iid}.traj.json`);
const passing = 'django__django-14752';
const failing = 'django__django-13660';

describe('gold in every layout public harnesses write', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => dir.remove());

  const put = (path: string, content: unknown) => {
    mkdirSync(dirname(join(dir.path, path)), { recursive: true });
    writeFileSync(join(dir.path, path), JSON.stringify(content));
  };
  const trajectories = (folder: (iid: string) => string) => {
    for (const iid of [passing, failing]) {
      mkdirSync(join(dir.path, folder(iid)), { recursive: true });
      cpSync(miniTrajectory(iid), join(dir.path, folder(iid), `${iid}.traj.json`));
    }
  };
  const golds = () => {
    const outcome = importRuns({ path: dir.path, format: 'auto' });
    return {
      outcome,
      gold: Object.fromEntries(outcome.suite.items.map((item) => [item.id, item.gold ?? null])),
    };
  };
  const report = (iid: string, resolved: boolean) => ({ [iid]: { resolved, tests_status: {} } });

  it('reads a report beside the trajectory and one under label/', () => {
    trajectories((iid) => iid);
    put(`${passing}/report.json`, report(passing, true));
    put(`${failing}/label/report.json`, report(failing, false));
    expect(golds().gold).toEqual({ [passing]: 'pass', [failing]: 'fail' });
  });

  it('reads SWE-agent instance folders at any depth and the harness logs/run_evaluation tree', () => {
    trajectories((iid) => `trajs/${iid}`);
    put(`trajs/${passing}/trace-7f3a/report.json`, report(passing, true));
    put(
      `logs/run_evaluation/run1/deepseek__deepseek-chat/${failing}/report.json`,
      report(failing, false),
    );
    expect(golds().gold).toEqual({ [passing]: 'pass', [failing]: 'fail' });
  });

  it('matches a report by the id inside it, not by the folder it is in', () => {
    trajectories((iid) => `trajs/${iid}`);
    // Both reports sit in folders named after the other instance.
    put(`eval/${failing}/report.json`, report(passing, true));
    put(`eval/${passing}/report.json`, report(failing, false));
    expect(golds().gold).toEqual({ [passing]: 'pass', [failing]: 'fail' });
  });

  it("reads the harness's <model>.<run>.json summary and an sb-cli report", () => {
    trajectories((iid) => `trajs/${iid}`);
    put('deepseek__deepseek-chat.run1.json', {
      total_instances: 500,
      resolved_instances: 1,
      resolved_ids: [passing],
      unresolved_ids: [failing],
      error_ids: [],
    });
    expect(golds().gold).toEqual({ [passing]: 'pass', [failing]: 'fail' });
    dir.remove();
    dir = makeTempDir();
    trajectories((iid) => `trajs/${iid}`);
    put('sb-cli-reports/swe-bench_verified__test__run1.json', {
      resolved_ids: [failing],
      unresolved_ids: [passing],
    });
    expect(golds().gold).toEqual({ [passing]: 'fail', [failing]: 'pass' });
  });

  it("reads SWE-bench experiments' results.json", () => {
    trajectories((iid) => `trajs/${iid}`);
    put('results/results.json', { generated: [passing, failing], resolved: [passing] });
    expect(golds().gold).toEqual({ [passing]: 'pass', [failing]: 'fail' });
  });

  it('prefers the per-instance report to a summary, and the nearer of two runs', () => {
    for (const model of ['model-a', 'model-b']) {
      mkdirSync(join(dir.path, model, passing), { recursive: true });
      cpSync(miniTrajectory(passing), join(dir.path, model, passing, `${passing}.traj.json`));
    }
    put(`model-a/${passing}/report.json`, report(passing, true));
    put(`model-b/${passing}/report.json`, report(passing, false));
    put('summary.json', { resolved_ids: [], unresolved_ids: [passing] });
    const { outcome } = golds();
    const bySource: Record<string, string | undefined> = {};
    for (const item of outcome.suite.items)
      bySource[item.provenance?.source.split('/')[0] ?? ''] = item.gold;
    expect(bySource).toEqual({ 'model-a': 'pass', 'model-b': 'fail' });
  });

  it('names every run imported without gold', () => {
    trajectories((iid) => `trajs/${iid}`);
    put(`trajs/${passing}/report.json`, report(passing, true));
    const { outcome, gold } = golds();
    expect(gold).toEqual({ [passing]: 'pass', [failing]: null });
    expect(outcome.withoutGold).toEqual([failing]);
  });

  it('imports a run copied into two folders once, naming both sources', () => {
    trajectories((iid) => `first/${iid}`);
    trajectories((iid) => `copy/${iid}`);
    const { outcome } = golds();
    expect(outcome.suite.items.map((item) => item.id).sort()).toEqual([failing, passing]);
    const duplicates = outcome.skipped.filter((entry) => entry.reason.includes('duplicate of'));
    expect(duplicates).toHaveLength(2);
    for (const entry of duplicates) {
      const iid = entry.path.split('/')[1]!;
      expect(entry.reason).toContain(`${iid}/${iid}.traj.json`);
      expect(entry.path.split('/')[0]).not.toBe(/duplicate of (\w+)\//.exec(entry.reason)?.[1]);
    }
  });
});

describe('SWE-agent 1.1 trajectories', () => {
  const outcome = importRuns({ path: join(fixtures, 'swe-agent-1.1'), format: 'auto' });
  const byId = new Map(outcome.suite.items.map((item) => [item.id, item]));

  it("starts from the image replay_config.env.deployment names, with docker_args' limits", () => {
    const django = byId.get('django__django-11099')!;
    expect(django.environment.image).toBe(
      'docker.io/swebench/sweb.eval.x86_64.django_1776_django-11099:latest',
    );
    expect(django.environment.resources).toEqual({ memoryMb: 6144, cpus: 2, pids: 512 });
    expect(django.environment.setup?.[0]).toContain('django/contrib/auth/validators.py');
    expect(byId.get('getmoto__moto-5109')!.environment.image).toBe(
      'xingyaoww/sweb.eval.x86_64.getmoto_s_moto-5109:latest',
    );
    expect(byId.get('getmoto__moto-5109')!.environment.resources).toEqual({ memoryMb: 4096 });
  });

  it('files each instance under its own dataset: SWE-bench Verified and SWE-Gym', () => {
    expect(byId.get('django__django-11099')!.dataset).toBe('swe-bench-verified');
    expect(byId.get('django__django-11099')!.taxonomy).toBe('swe-bench-verified');
    expect(byId.get('getmoto__moto-5109')!.dataset).toBe('swe-gym');
    expect(byId.get('getmoto__moto-5109')!.taxonomy).toBeUndefined();
  });

  it('finds gold under <instance>/<trace>/ and <instance>/label/, never a grader line', () => {
    expect(byId.get('django__django-11099')!.gold).toBe('pass');
    expect(byId.get('getmoto__moto-5109')!.gold).toBe('fail');
    expect(JSON.stringify(outcome.suite)).not.toContain('HIDDEN-GRADER-MARKER');
  });

  it('never invents an image a trajectory does not name', () => {
    const legacy = importRuns({ path: join(fixtures, 'swe-agent'), format: 'swe-agent' });
    const pydicom = legacy.suite.items.find((item) => item.id === 'pydicom__pydicom-1458')!;
    expect(pydicom.environment.image).toBeUndefined();
    expect(pydicom.note).toContain('names no image');
  });
});
