/**
 * The judge's tools: those of the substrates the environment serves (substrates/), then
 * read_trajectory and submit_verdict. Arguments come from a model, so each tool parses them
 * before use; a bad call returns an error the model can read, never a thrown exception.
 */
import { z } from 'zod';
import {
  defineTool,
  toolError,
  type JudgeEnvironment,
  type JudgeTool,
  type Readout,
  type ToolContext,
  type ToolOutcome,
} from '../contract';
import { isEnvironmentLost } from '../environments';
import type { ToolSpec } from '../providers';
import { allSubstrateTools, toolsServedBy } from '../substrates';
import { deepFreeze } from './frozen';
import { verdictJsonSchema } from './readouts';
import { trajectoryPage } from './trajectory-render';

/** Name of the verdict tool; a call to it ends the loop. */
export const submitVerdictTool = 'submit_verdict';

/** The judge's own tool: the trajectory it is judging, by line number. */
const readTrajectoryTool = defineTool({
  name: 'read_trajectory',
  description: "Return the agent trajectory's numbered lines start_line..end_line.",
  input: z
    .object({
      start_line: z.number().int().min(1).max(1_000_000),
      end_line: z.number().int().min(1).max(1_000_000),
    })
    .strict(),
  run: ({ start_line: first, end_line: last }, { trajectoryLines }) => {
    const total = trajectoryLines.length;
    if (first > total) {
      return Promise.resolve(
        toolError(`The trajectory has ${total} lines; start_line ${first} is past the end.`),
      );
    }
    return Promise.resolve({
      content: trajectoryPage(trajectoryLines, first, last),
      isError: false,
    });
  },
});

/** Every tool a call may name, by name; only those offered to the rep are run. */
const toolsByName = new Map(
  [...allSubstrateTools(), readTrajectoryTool].map((tool) => [tool.name, tool]),
);

/** The tools offered for an environment and readout, in a fixed order. */
export function judgeToolSpecs(environment: JudgeEnvironment, readout: Readout): ToolSpec[] {
  const specs = [...toolsServedBy(environment), readTrajectoryTool].map(investigationToolSpec);
  specs.push(verdictToolSpec(readout));
  return specs;
}

/**
 * Tool specs are built once and shared, frozen, by every rep: turning zod into JSON Schema
 * was a tenth of a rep's CPU. The array around them is each prompt's own.
 */
const investigationSpecs = new WeakMap<JudgeTool, ToolSpec>();
const verdictSpecs = new WeakMap<Record<string, unknown>, ToolSpec>();

function investigationToolSpec(tool: JudgeTool): ToolSpec {
  let spec = investigationSpecs.get(tool);
  if (!spec) {
    spec = deepFreeze({
      name: tool.name,
      description: tool.description,
      inputSchema: jsonSchemaOf(tool.inputSchema),
    });
    investigationSpecs.set(tool, spec);
  }
  return spec;
}

function verdictToolSpec(readout: Readout): ToolSpec {
  // The verdict JSON Schema is itself shared per readout shape, so it keys its tool spec.
  const inputSchema = verdictJsonSchema(readout);
  let spec = verdictSpecs.get(inputSchema);
  if (!spec) {
    spec = Object.freeze({
      name: submitVerdictTool,
      description: 'Submit your final verdict. Call this exactly once, when you have finished.',
      inputSchema,
    });
    verdictSpecs.set(inputSchema, spec);
  }
  return spec;
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** Context a tool call runs in: the tool context and the names offered to this rep. */
export interface RunToolContext extends ToolContext {
  offered: ReadonlySet<string>;
}

/** Runs one investigation tool call. */
export async function runTool(
  name: string,
  input: unknown,
  context: RunToolContext,
): Promise<ToolOutcome> {
  const tool = context.offered.has(name) ? toolsByName.get(name) : undefined;
  if (!tool) {
    return toolError(
      `There is no tool named "${name}" here. Available: ${[...context.offered].join(', ')}.`,
    );
  }
  try {
    return await tool.call(parseMaybeJson(input), context);
  } catch (failure) {
    // A dead environment is not something the judge can reason about: the rep is void.
    if (isEnvironmentLost(failure)) throw failure;
    return toolError(
      `${name} failed: ${failure instanceof Error ? failure.message : String(failure)}`,
    );
  }
}

function parseMaybeJson(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}
