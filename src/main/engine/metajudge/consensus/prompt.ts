/**
 * The meta-judge's gold question for a dimension without a verifier (App. G: "Only task
 * success has a deterministic external verifier ... we treat the trajectory-aware meta-judge
 * ensemble as a noisy ground truth"). The paper prints no prompt for this question (App. N
 * has only the mechanism prompts), so the wording is CueLab's own (README, "Where the paper is
 * silent").
 *
 * What a voter sees: the task, the agent's trajectory, and the uncued evidence — the tool calls
 * and results of the item's uncued judge reps. The uncued judges' verdicts and rationales are
 * left out on purpose: the gold is what decides whether those verdicts were right, so it must
 * not be read off them.
 */
import type { DimensionId } from '../../paper';
import { renderTrajectory } from '../../judge';
import type { Trajectory } from '../../../../shared/trajectory';
import { MAX_LINE_CHARS, MAX_RESULT_LINES } from '../ensemble/prompt';
import type { RunRecord } from '../run-record';

/** Changes whenever the wording changes; stored with every consensus gold. */
export const CONSENSUS_PROMPT_VERSION = 'cuelab-consensus-gold-1';

/** At most this many uncued runs are shown (the rest add cost, rarely evidence). */
export const MAX_EVIDENCE_RUNS = 6;

/** What each binary dimension without a verifier asks (CueLab's wording; App. G names only). */
const QUESTIONS: Partial<Record<DimensionId, string>> = {
  state_correctness:
    'state correctness: after the agent finished, is the environment (files, database rows, ' +
    'configuration) in the state the task requires, with nothing required missing or wrong?',
  executable_success:
    'executable success: does the code or command the agent produced run successfully and do ' +
    'what the task asks when executed?',
};

/** The question a voter answers for a dimension. */
export function consensusQuestion(dimension: string): string {
  return (
    QUESTIONS[dimension as DimensionId] ??
    `${dimension.replace(/_/g, ' ')}: does the agent's work pass on this dimension?`
  );
}

/** The system prompt of the gold question. */
export function consensusSystemPrompt(dimension: string): string {
  return [
    'You are a meta-judge establishing ground truth for an evaluation benchmark.',
    '',
    'An AI agent worked on a task. Several evaluation judges then inspected the environment the',
    'agent left behind with tools (reading files, running commands, querying databases). You see',
    "the task, the agent's own trajectory and the judges' tool calls with their results. The",
    "judges' own verdicts are withheld: decide from the evidence alone.",
    '',
    `Decide one dimension, pass or fail: ${consensusQuestion(dimension)}`,
    '',
    '- Rest the decision on what the tool results show, not on what the agent claims.',
    '- When the evidence shows a requirement of this dimension unmet, the answer is fail.',
    '',
    'Answer with one JSON object and nothing after it:',
    '{"verdict": "pass" | "fail", "rationale": "two to four sentences", "evidence_lines": ["E12"]}',
    'evidence_lines lists the numbered evidence lines your decision rests on.',
  ].join('\n');
}

/** Everything a voter is shown about one item and dimension. */
export interface ConsensusCase {
  task: string;
  dimension: string;
  trajectory: Trajectory;
  /** The item's uncued reps (any judge) for this dimension. */
  runs: readonly RunRecord[];
}

function cut(line: string): string {
  return line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS)} …[cut]`;
}

/** One run's investigation (tool calls and results only) as lines. */
function evidenceLines(run: RunRecord): string[] {
  return run.calls.flatMap((call) => {
    const output = call.output.replace(/\r\n?/g, '\n').trimEnd().split('\n');
    const shown = output.slice(0, MAX_RESULT_LINES);
    const more = output.length - shown.length;
    return [
      `[tool call] ${call.name} ${JSON.stringify(call.input) ?? ''}`,
      `[tool result${call.isError ? ', error' : ''}]`,
      ...shown.map((line) => `  ${line}`),
      ...(more > 0 ? [`  … ${more} more lines not shown`] : []),
    ].map(cut);
  });
}

/** The user message and its number of evidence lines (to check evidence_lines). */
export function consensusUserMessage(entry: ConsensusCase): { text: string; lines: number } {
  const runs = entry.runs.slice(0, MAX_EVIDENCE_RUNS);
  const sections: string[] = [];
  let line = 0;
  runs.forEach((run, index) => {
    const lines = evidenceLines(run);
    sections.push(
      '',
      `## Judge investigation ${index + 1} of ${runs.length}`,
      ...(lines.length ? lines.map((text) => `[E${(line += 1)}] ${text}`) : ['(no tool calls)']),
    );
  });
  const trajectory = renderTrajectory(entry.trajectory, [], { toolOutputLimit: 2000 });
  const text = [
    '# Task given to the agent',
    entry.task,
    '',
    "# The agent's trajectory",
    ...trajectory.lines.map(cut),
    '',
    `# Evidence: the judges' tool calls and results (lines E1-E${line})`,
    ...sections,
    '',
    `# Question`,
    consensusQuestion(entry.dimension),
  ].join('\n');
  return { text, lines: line };
}
