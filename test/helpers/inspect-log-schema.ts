/**
 * Inspect AI's published log schema, as a checker for the logs `cuelab export-inspect` writes.
 * `inspect view` cannot be installed here (no PyPI), so our logs are held to the field names,
 * required fields and types Inspect itself publishes: the OpenAPI components generated from its
 * pydantic models (`EvalLog` and what it holds), which its viewer's TypeScript types are built
 * from. Written in our words after UKGovernmentBEIS/inspect_ai, commit
 * 499e6152e7b8fc8cbd8ac5283536572aa6e4ab17, file `src/inspect_ai/_view/inspect-openapi.json`
 * (components `EvalLog`, `EvalSpec`, `EvalDataset`, `EvalPlan`, `EvalPlanStep`, `EvalResults`,
 * `EvalScore`, `EvalMetric`, `EvalStats`, `ModelUsage`, `EvalSample`, `ChatMessage*`,
 * `ToolCall`, `ToolCallError`, `ModelOutput`, `ChatCompletionChoice`, `Score`,
 * `EvalSampleSummary`, `EvalSampleReductions`, `EvalSampleScore`), MIT licence. Only the
 * fields we write, and every field the schema marks required, are checked; the rest of
 * Inspect's (optional) fields are let through as Inspect lets them through.
 */
import { z } from 'zod';

const record = z.record(z.string(), z.unknown());
const sampleId = z.union([z.number().int(), z.string()]);
const nullableString = z.string().nullable().optional();

/** `ModelUsage`: the three token counts are required integers. */
const modelUsage = z.looseObject({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  input_tokens_cache_write: z.number().int().nullable().optional(),
  input_tokens_cache_read: z.number().int().nullable().optional(),
  reasoning_tokens: z.number().int().nullable().optional(),
  total_cost: z.number().nullable().optional(),
});

const content = z.union([z.string(), z.array(z.unknown())]);

/** `ToolCall`: `arguments` is an object, `type` "function" or "custom". */
const toolCall = z.looseObject({
  id: z.string(),
  function: z.string(),
  arguments: record,
  type: z.enum(['function', 'custom']),
  parse_error: nullableString,
});

const toolCallErrorTypes = [
  'parsing',
  'timeout',
  'unicode_decode',
  'permission',
  'file_not_found',
  'is_a_directory',
  'limit',
  'approval',
  'cancelled',
  'sandbox_unavailable',
  'unknown',
  'output_limit',
] as const;

const messageBase = {
  content,
  id: nullableString,
  source: nullableString,
  metadata: record.nullable().optional(),
};

const assistantMessage = z.looseObject({
  ...messageBase,
  role: z.literal('assistant'),
  tool_calls: z.array(toolCall).nullable().optional(),
  model: nullableString,
});

/** `ChatMessage`: system, user, assistant or tool, told apart by `role`. */
export const inspectChatMessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ ...messageBase, role: z.literal('system') }),
  z.looseObject({
    ...messageBase,
    role: z.literal('user'),
    tool_call_id: z.array(z.string()).nullable().optional(),
  }),
  assistantMessage,
  z.looseObject({
    ...messageBase,
    role: z.literal('tool'),
    tool_call_id: nullableString,
    function: nullableString,
    error: z
      .looseObject({ type: z.enum(toolCallErrorTypes), message: z.string() })
      .nullable()
      .optional(),
  }),
]);

const scoreValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number(), z.boolean()])),
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
]);

/** `Score`: a value and its (possibly empty) edit history are required. */
const score = z.looseObject({
  value: scoreValue,
  answer: nullableString,
  explanation: nullableString,
  metadata: record.nullable().optional(),
  history: z.array(z.unknown()),
});

const stopReasons = [
  'stop',
  'max_tokens',
  'model_length',
  'tool_calls',
  'content_filter',
  'unknown',
] as const;

/** `ModelOutput`: the model, its choices and the completion text are required. */
const modelOutput = z.looseObject({
  model: z.string(),
  choices: z.array(z.looseObject({ message: assistantMessage, stop_reason: z.enum(stopReasons) })),
  completion: z.string(),
  usage: modelUsage.nullable().optional(),
  time: z.number().nullable().optional(),
  error: nullableString,
});

/** `EvalSample`: one sample of a log (`.json` `samples[]`, `.eval` `samples/<id>_epoch_<n>.json`). */
export const inspectSampleSchema = z.looseObject({
  id: sampleId,
  epoch: z.number().int(),
  input: content,
  target: z.union([z.string(), z.array(z.string())]),
  messages: z.array(inspectChatMessageSchema),
  output: modelOutput,
  scores: z.record(z.string(), score).nullable().optional(),
  metadata: record,
  store: record,
  events: z.array(z.unknown()),
  model_usage: z.record(z.string(), modelUsage),
  role_usage: z.record(z.string(), modelUsage),
  attachments: z.record(z.string(), z.string()),
  total_time: z.number().nullable().optional(),
  working_time: z.number().nullable().optional(),
  uuid: nullableString,
  started_at: nullableString,
  completed_at: nullableString,
});

const metric = z.looseObject({
  name: z.string(),
  value: z.number(),
  params: record,
  group: nullableString,
});

/** `EvalLog` without its samples: a `.json` log's top level, or a `.eval` log's header.json. */
export const inspectLogHeaderSchema = z.looseObject({
  version: z.number().int(),
  status: z.enum(['started', 'success', 'cancelled', 'error']),
  eval: z.looseObject({
    eval_id: z.string(),
    run_id: z.string(),
    created: z.string(),
    task: z.string(),
    task_id: z.string(),
    task_version: z.union([z.number().int(), z.string()]),
    task_attribs: record,
    task_args: record,
    task_args_passed: record,
    dataset: z.looseObject({
      name: nullableString,
      location: nullableString,
      samples: z.number().int().nullable().optional(),
    }),
    model: z.string(),
    model_generate_config: record,
    model_args: record,
    config: record,
    packages: z.record(z.string(), z.string()),
    metadata: record.nullable().optional(),
  }),
  plan: z.looseObject({
    name: z.string(),
    steps: z.array(z.looseObject({ solver: z.string(), params: record, params_passed: record })),
    config: record,
  }),
  results: z
    .looseObject({
      total_samples: z.number().int(),
      completed_samples: z.number().int(),
      scores: z.array(
        z.looseObject({
          name: z.string(),
          scorer: z.string(),
          params: record,
          metrics: z.record(z.string(), metric),
          reducer: nullableString,
        }),
      ),
    })
    .nullable()
    .optional(),
  stats: z.looseObject({
    started_at: z.string(),
    completed_at: z.string(),
    model_usage: z.record(z.string(), modelUsage),
    role_usage: z.record(z.string(), modelUsage),
    connection_limit_history: z.array(z.unknown()),
  }),
  invalidated: z.boolean(),
  tags: z.array(z.string()),
  metadata: record,
  reductions: z.array(z.unknown()).nullable().optional(),
});

/** A whole `.json` log: the header fields and its samples. */
export const inspectLogSchema = inspectLogHeaderSchema.extend({
  samples: z.array(inspectSampleSchema).nullable().optional(),
});

/** `EvalSampleSummary`: a `.eval` log's summaries.json holds a list of them. */
export const inspectSampleSummarySchema = z.looseObject({
  id: sampleId,
  epoch: z.number().int(),
  input: content,
  target: z.union([z.string(), z.array(z.string())]),
  metadata: record,
  model_usage: z.record(z.string(), modelUsage),
  role_usage: z.record(z.string(), modelUsage),
  completed: z.boolean(),
  scores: z.record(z.string(), score).nullable().optional(),
  message_count: z.number().int().nullable().optional(),
  uuid: nullableString,
});

/** `EvalSampleReductions`: a `.eval` log's reductions.json holds a list of them. */
export const inspectReductionsSchema = z.looseObject({
  scorer: z.string(),
  reducer: nullableString,
  samples: z.array(score.extend({ sample_id: sampleId.nullable().optional() })),
});
