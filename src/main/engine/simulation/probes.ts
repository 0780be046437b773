/**
 * Reading probe outputs: whether a tool result meets a probe's expectation, the short fragment
 * of it a rationale quotes, and the verdict a set of read probes supports. Pure.
 */
import type { ProbeExpectation } from '../../../shared/suite-format';
import { STOP_DIRECTIVE_PREFIX } from '../paper';
import { pageEnding, type PlanProbe } from './trajectory-plan';
import { shellName } from '../../../shared/substrates/shell';

/** A tool result the synthetic judge received, as the loop appended it. */
export interface Observation {
  content: string;
  isError: boolean;
}

/** A probe together with what its tool call returned. */
export interface ReadProbe {
  probe: PlanProbe;
  observation: Observation;
  met: boolean;
}

/** Pass or fail, the binary reading of any verdict. */
export type Conclusion = 'pass' | 'fail';

/** True when the harness stop directive (App. R) was appended to this tool result. */
export function hasStopDirective(content: string): boolean {
  return content.includes(STOP_DIRECTIVE_PREFIX.text);
}

/** The tool output without an appended stop directive. */
export function outputOf(observation: Observation): string {
  const at = observation.content.indexOf(STOP_DIRECTIVE_PREFIX.text);
  return at < 0 ? observation.content : observation.content.slice(0, at).trimEnd();
}

function exitCodeOf(output: string): number | null {
  const match = /^exit code: (-?\d+)/m.exec(output);
  return match ? Number(match[1]) : null;
}

function safeRegExp(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'm');
  } catch {
    return null;
  }
}

/** Whether an output meets an expectation. A failed tool call meets only a `not_contains`. */
export function meetsExpectation(expect: ProbeExpectation, observation: Observation): boolean {
  const output = outputOf(observation);
  switch (expect.kind) {
    case 'contains':
      return !observation.isError && output.includes(expect.value);
    case 'not_contains':
      return !output.includes(expect.value);
    case 'matches':
      return !observation.isError && (safeRegExp(expect.pattern)?.test(output) ?? false);
    case 'exit_code':
      return exitCodeOf(output) === expect.value;
  }
}

/** Reads a probe's observation; a trajectory page shows what the persona reads in it. */
export function readProbe(probe: PlanProbe, observation: Observation): ReadProbe {
  const met =
    probe.tool === 'read_trajectory' ? probe.shows : meetsExpectation(probe.expect, observation);
  return { probe, observation, met };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

/**
 * A short exact substring of the output for a rationale to quote: the expected value or match
 * when the output has it, else its first non-empty line (a query's first row), at most 60
 * characters.
 */
export function quoteFragment(read: ReadProbe): string {
  const output = outputOf(read.observation);
  if (read.probe.tool === 'read_trajectory') return clip(pageEnding(output), 60);
  const { expect } = read.probe;
  if ((expect.kind === 'contains' || expect.kind === 'not_contains') && expect.value) {
    if (output.includes(expect.value)) return clip(expect.value, 80);
  }
  if (expect.kind === 'matches') {
    const match = safeRegExp(expect.pattern)?.exec(output);
    if (match?.[0]) return clip(match[0], 80);
  }
  if (expect.kind === 'exit_code') {
    const match = /^exit code: -?\d+/m.exec(output);
    if (match) return match[0];
  }
  // A shell result starts with its exit code and stream labels; quote what the command printed.
  const lines = output
    .split('\n')
    .filter((candidate) => candidate.trim().length > 0)
    .filter(
      (candidate) =>
        read.probe.tool !== shellName || !/^(exit code: |stdout:$|stderr:$)/.test(candidate),
    );
  // A fetched page starts with its URL and title lines; quote its text.
  if (read.probe.tool === 'fetch_url') {
    const text = lines.filter((candidate) => !/^(URL|Title): /.test(candidate));
    return clip((text[0] ?? lines[0] ?? '').trim(), 60);
  }
  // A query result's first line is its column header; quote the first row when there is one.
  const row =
    read.probe.tool === 'sql_query' && lines[1] && !lines[1].startsWith('(') ? lines[1] : undefined;
  return clip((row ?? lines[0] ?? '').trim(), 60);
}

/** How a probe's tool call reads in prose: `read_file logs/a.log`, `web_search "..."`. */
export function describeCall(probe: PlanProbe): string {
  if (probe.tool === 'read_trajectory') {
    return `read_trajectory lines ${probe.input.start_line}–${probe.input.end_line}`;
  }
  const input = probe.input;
  const argument =
    typeof input.path === 'string'
      ? input.path
      : typeof input.url === 'string'
        ? input.url
        : typeof input.query === 'string'
          ? `"${input.query}"`
          : typeof input.sql === 'string'
            ? `\`${input.sql}\``
            : typeof input.command === 'string'
              ? `\`${input.command}\``
              : JSON.stringify(input);
  return `${probe.tool} ${argument}`;
}

/**
 * The verdict read probes support: the decisive probes among them when any ran (all met → pass),
 * else all of them (a judge that skipped the decisive check judges by the surface).
 */
export function conclusionOf(reads: readonly ReadProbe[]): Conclusion {
  const decisive = reads.filter((read) => read.probe.decisive);
  const basis = decisive.length > 0 ? decisive : reads;
  return basis.every((read) => read.met) ? 'pass' : 'fail';
}

/**
 * The conclusion of the full plan when these reads already settle it (every decisive probe of
 * `plan` read, or one of them unmet), else null.
 */
export function settledConclusion(
  plan: readonly PlanProbe[],
  reads: readonly ReadProbe[],
): Conclusion | null {
  const decisive = plan.filter((probe) => probe.decisive);
  if (decisive.length === 0) {
    if (reads.some((read) => !read.met)) return 'fail';
    return reads.length === plan.length ? 'pass' : null;
  }
  const readDecisive = reads.filter((read) => read.probe.decisive);
  if (readDecisive.some((read) => !read.met)) return 'fail';
  return readDecisive.length === decisive.length ? 'pass' : null;
}
