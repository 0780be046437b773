/** Part (e)'s summary: every figure beside its floor and the load, and the issue's targets. */
import { round } from './measure';
import type { HeavyJob, ResponsivenessResult } from './responsiveness';

/** One of the never-blocking targets, checked. */
export interface Target {
  what: string;
  figure: string;
  met: boolean;
}

function job(result: ResponsivenessResult, name: string): HeavyJob | undefined {
  return result.jobs.find((entry) => entry.name.startsWith(name));
}

/** The never-blocking "done when" figures that part (e) measures. */
export function responsivenessTargets(result: ResponsivenessResult): Target[] {
  const targets: Target[] = [];
  const page = job(result, 'workbench page');
  if (page)
    targets.push({
      what: 'workbench page < 500 ms',
      figure: `${String(page.ms)} ms`,
      met: !page.failed && page.ms < 500,
    });
  const search = job(result, 'search matching nothing');
  if (search)
    targets.push({
      what: 'non-matching search < 2000 ms',
      figure: `${String(search.ms)} ms`,
      met: !search.failed && search.ms < 2000,
    });
  for (const name of ['search matching nothing', 'end-of-study drawing', 'Inspect export']) {
    const during = job(result, name);
    if (during)
      targets.push({
        what: `health p99 < 100 ms during the ${name}`,
        figure: `${String(during.health.p99)} ms (load ${String(during.load)})`,
        met: !during.failed && during.health.p99 < 100,
      });
  }
  const { interrupted } = result;
  targets.push({
    what: 'first table of an interrupted study ≤ 1× the plain scan (labelled, once the engine answers)',
    figure:
      `${String(interrupted.ratio)}× (${String(interrupted.firstTableMs)} ms against ${String(interrupted.floorMs)} ms; ` +
      `labelled: drawn from ${String(interrupted.drawnFromReps)} of ${String(interrupted.studyReps)} reps)`,
    met: interrupted.ratio <= 1 && interrupted.drawnFromReps >= 0,
  });
  return targets;
}

/** The summary lines of part (e). */
export function printResponsiveness(result: ResponsivenessResult): string[] {
  const { workspace, healthAlone: alone } = result;
  const ratio = (value: number, floor: number) =>
    floor > 0 ? `${String(round(value / floor, 2))}×` : 'n/a';
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const cliFirst = median(result.cli.map((entry) => entry.firstRequestMs));
  return [
    `(e) the engine never blocks: ${String(workspace.reps)} reps, ${String(workspace.messages)} stored messages ` +
      `(${String(round(workspace.fileBytes / 2 ** 20))} MB), over HTTP to cuelab serve`,
    `  health alone: p50 ${String(alone.p50)} / p99 ${String(alone.p99)} / max ${String(alone.max)} ms (load ${String(alone.load)})`,
    ...result.jobs.map(
      (entry) =>
        `  ${entry.name}: ${String(entry.ms)} ms${entry.failed ? ` FAILED (${entry.detail})` : ''}; health p50 ` +
        `${String(entry.health.p50)} / p99 ${String(entry.health.p99)} (${ratio(entry.health.p99, alone.p99)} alone) / max ` +
        `${String(entry.health.max)} ms; load ${String(entry.load)}`,
    ),
    `  engine to its ready line: ${result.readyMs.map(String).join(', ')} ms = ` +
      `${ratio(median(result.readyMs), result.nodeStartMs)} Node's own start (${String(result.nodeStartMs)} ms)`,
    `  CLI (cuelab --engine URL status) to its first request: median ${String(cliFirst)} ms = ` +
      `${ratio(cliFirst, result.nodeStartMs)} Node's own start`,
    `  first table of an interrupted study (out of date, labelled): ${String(result.interrupted.firstTableMs)} ms = ` +
      `${String(result.interrupted.ratio)}× the plain scan (${String(result.interrupted.floorMs)} ms); a second ` +
      `${String(result.interrupted.secondTableMs)} ms; its own work in process ` +
      `${String(result.interrupted.inProcessMs)} ms = ` +
      `${ratio(result.interrupted.inProcessMs, result.interrupted.floorMs)} the scan; the current one ` +
      `${String(result.interrupted.currentTableMs)} ms = ${String(result.interrupted.currentRatio)}×; the engine's first ` +
      `answer after its ready line ${String(result.interrupted.firstAnswerMs)} ms; load ${String(result.interrupted.load)}`,
    ...responsivenessTargets(result).map(
      (target) => `  target ${target.what}: ${target.figure} — ${target.met ? 'met' : 'NOT met'}`,
    ),
  ];
}
