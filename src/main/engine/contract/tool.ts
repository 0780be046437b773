/**
 * A tool the judge may call, typed end to end: its zod schema parses the model's arguments and
 * its handler receives exactly what the schema produced, so no handler casts its input back.
 */
import type { z } from 'zod';
import type { JudgeEnvironment, ToolLimits } from './environment';

/** What a tool call produced, as the model will read it. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
}

/** What a tool call acts on. */
export interface ToolContext {
  environment: JudgeEnvironment;
  /** The trajectory lines `read_trajectory` serves. */
  trajectoryLines: readonly string[];
  limits: ToolLimits;
  signal?: AbortSignal;
}

/** A tool as its substrate writes it: input schema and a handler for the parsed input. */
export interface ToolDefinition<Input> {
  readonly name: string;
  /** What the model is told the tool does. */
  readonly description: string;
  /** Parses the model's arguments; what it outputs is what `run` receives. */
  readonly input: z.ZodType<Input>;
  readonly run: (input: Input, context: ToolContext) => Promise<ToolOutcome>;
}

/**
 * A tool with its input type sealed inside, so tools with different inputs share one list.
 * `call` parses first; a bad argument is an outcome the model can read, never a throw.
 */
export interface JudgeTool {
  readonly name: string;
  readonly description: string;
  /** The input schema, for the JSON Schema the model is sent. */
  readonly inputSchema: z.ZodType;
  call(input: unknown, context: ToolContext): Promise<ToolOutcome>;
}

/** Seals a definition's input type behind its own parse. */
export function defineTool<Input>(definition: ToolDefinition<Input>): JudgeTool {
  const { name, description, input, run } = definition;
  return {
    name,
    description,
    inputSchema: input,
    call: (raw, context) => {
      const parsed = input.safeParse(raw);
      if (parsed.success) return run(parsed.data, context);
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`,
      );
      return Promise.resolve(toolError(`Bad arguments for ${name}: ${problems.join('; ')}.`));
    },
  };
}

/** An outcome the model reads as an error. */
export function toolError(content: string): ToolOutcome {
  return { content, isError: true };
}
