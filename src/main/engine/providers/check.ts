/**
 * The connection check (`cuelab providers check`): one tiny tool-using request, sent twice so
 * the second can show whether the provider's prompt cache answered. It reports whether tool
 * calls came back and in which dialect, whether reasoning came back, whether caching is on,
 * the latency, and the price per million tokens the cost column will use. The result is
 * stored in the workspace (check-store.ts); a study refuses to launch against an endpoint whose
 * last check failed.
 */
import { findPrice } from './pricing';
import { createProvider, type Environment, type ModelSettings } from './settings';
import { ProviderError, type ModelRequest, type ModelResponse } from './types';

/** What a check found. */
export interface ProviderCheck {
  provider: string;
  model: string;
  baseUrl: string | null;
  checkedAt: string;
  /** True when the endpoint answered with a tool call CueLab could read. */
  ok: boolean;
  /** Why not, when not. */
  problem: string | null;
  toolCalls: boolean;
  /** The tool-call dialect the reply came in (structured for Anthropic and OpenAI). */
  dialect: string | null;
  reasoning: boolean;
  /** `on`: the repeat read from the cache; `off`: it did not. */
  caching: 'on' | 'off' | null;
  latencyMs: number | null;
  /** US dollars per million tokens, from the price table; null when the model has none. */
  price: {
    input: number;
    output: number;
    cacheRead: number | null;
    cacheWrite: number | null;
  } | null;
}

/** Long enough (about 1 300 tokens) for a provider's minimum cacheable prompt. */
const checkSystem = [
  'You are checking a connection for CueLab. Call the echo tool once with the text "ping".',
  ...Array.from(
    { length: 60 },
    (_, index) =>
      `Reference line ${index + 1}: this text only makes the prompt long enough to be cached.`,
  ),
].join('\n');

const checkRequest = (model: string): ModelRequest => ({
  model,
  system: checkSystem,
  messages: [{ role: 'user', content: 'Call the echo tool with {"text": "ping"} now.' }],
  tools: [
    {
      name: 'echo',
      description: 'Echoes the text back.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
    },
  ],
  maxTokens: 512,
});

function cached(response: ModelResponse): boolean {
  return (response.usage.cacheReadTokens ?? 0) > 0;
}

/** Runs the check against one model's settings (keys from `env`). */
export async function checkProvider(
  settings: ModelSettings,
  env: Environment,
  now: () => number = Date.now,
): Promise<ProviderCheck> {
  const row = findPrice(settings.provider, settings.model);
  const result: ProviderCheck = {
    provider: settings.provider,
    model: settings.model,
    baseUrl: settings.baseUrl ?? null,
    checkedAt: new Date(now()).toISOString(),
    ok: false,
    problem: null,
    toolCalls: false,
    dialect: null,
    reasoning: false,
    caching: null,
    latencyMs: null,
    price: row
      ? {
          input: row.inputPerMillion,
          output: row.outputPerMillion,
          cacheRead: row.cacheReadPerMillion ?? null,
          cacheWrite: row.cacheWritePerMillion ?? null,
        }
      : null,
  };
  try {
    const provider = createProvider(settings, env);
    const started = now();
    const first = await provider.complete(checkRequest(settings.model));
    result.latencyMs = now() - started;
    result.toolCalls = first.toolCalls.some((call) => call.name === 'echo');
    result.dialect = first.dialect ?? 'structured';
    result.reasoning = Boolean(first.reasoning) || (first.reasoningBlocks?.length ?? 0) > 0;
    const second = await provider.complete(checkRequest(settings.model));
    result.caching = cached(first) || cached(second) ? 'on' : 'off';
    result.ok = result.toolCalls;
    if (!result.ok)
      result.problem = `the model answered without calling the echo tool (it said: ${first.text.slice(0, 200) || 'nothing'})`;
  } catch (error) {
    result.problem =
      error instanceof ProviderError || error instanceof Error ? error.message : String(error);
  }
  return result;
}

/** The check's report, one fact a line. */
export function formatProviderCheck(check: ProviderCheck): string[] {
  const where = check.baseUrl ? ` at ${check.baseUrl}` : '';
  const usd = (value: number) => `$${Number(value.toFixed(4))}`;
  const price = check.price
    ? `${usd(check.price.input)} in / ${usd(check.price.output)} out per Mtok` +
      (check.price.cacheRead === null ? '' : `, cache reads ${usd(check.price.cacheRead)}`) +
      (check.price.cacheWrite === null ? '' : `, cache writes ${usd(check.price.cacheWrite)}`)
    : 'unknown (no price row: add one in Settings)';
  return [
    `${check.ok ? 'OK' : 'FAILED'}: ${check.provider} ${check.model}${where}`,
    ...(check.problem ? [`  problem: ${check.problem}`] : []),
    `  tool calls: ${check.toolCalls ? `yes (${check.dialect ?? 'structured'})` : 'no'}`,
    `  reasoning: ${check.reasoning ? 'yes' : 'no'}`,
    `  prompt caching: ${check.caching ?? 'not known'}`,
    `  latency: ${check.latencyMs === null ? 'no answer' : `${check.latencyMs} ms`}`,
    `  price: ${price}`,
  ];
}
