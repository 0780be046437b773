import * as AnthropicSdk from '@anthropic-ai/sdk';
import * as OpenAISdk from 'openai';
import { describe, expect, it } from 'vitest';
import {
  isTemperatureRejection,
  parseRetryAfterMs,
  toProviderError,
  type ErrorContext,
  type SdkErrorClasses,
} from '../../src/main/engine/providers/errors';
import { ProviderError } from '../../src/main/engine/providers/types';

const now = Date.parse('2026-03-01T12:00:00Z');
const headers = (values: Record<string, string>) => new Headers(values);

describe('parseRetryAfterMs', () => {
  it('reads retry-after as seconds, whole or fractional', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after': '0' }), now)).toBe(0);
    expect(parseRetryAfterMs(headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(parseRetryAfterMs(headers({ 'retry-after': '1.5' }), now)).toBe(1500);
  });

  it('reads retry-after as an HTTP-date relative to now, never negative', () => {
    const later = 'Sun, 01 Mar 2026 12:00:30 GMT';
    expect(parseRetryAfterMs(headers({ 'retry-after': later }), now)).toBe(30_000);
    const earlier = 'Sun, 01 Mar 2026 11:59:00 GMT';
    expect(parseRetryAfterMs(headers({ 'retry-after': earlier }), now)).toBe(0);
  });

  it('prefers retry-after-ms when both are present', () => {
    const both = headers({ 'retry-after-ms': '250', 'retry-after': '9' });
    expect(parseRetryAfterMs(both, now)).toBe(250);
  });

  it('falls back to retry-after when retry-after-ms is unreadable', () => {
    const both = headers({ 'retry-after-ms': 'soon', 'retry-after': '2' });
    expect(parseRetryAfterMs(both, now)).toBe(2000);
  });

  it('returns undefined when absent or unreadable', () => {
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({}), now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({ 'retry-after': 'later please' }), now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({ 'retry-after': '-3' }), now)).toBeUndefined();
  });
});

describe('isTemperatureRejection', () => {
  it.each([
    '`temperature` is deprecated for this model.',
    "Unsupported value: 'temperature' does not support 0.7 with this model.",
    'temperature is not supported for this model',
    'The parameter temperature is unsupported when thinking is enabled',
  ])('recognises %j', (message) => {
    expect(isTemperatureRejection(message)).toBe(true);
  });

  it.each([
    'max_tokens: must be at most 8192',
    'temperature: must be between 0 and 1',
    'This model is deprecated',
  ])('ignores %j', (message) => {
    expect(isTemperatureRejection(message)).toBe(false);
  });

  it('uses the param field OpenAI reports', () => {
    expect(isTemperatureRejection('Unsupported value: only 1 is allowed', 'temperature')).toBe(
      true,
    );
  });
});

const anthropicClasses: SdkErrorClasses = {
  SdkError: AnthropicSdk.AnthropicError,
  APIError: AnthropicSdk.APIError,
  APIUserAbortError: AnthropicSdk.APIUserAbortError,
  APIConnectionError: AnthropicSdk.APIConnectionError,
  APIConnectionTimeoutError: AnthropicSdk.APIConnectionTimeoutError,
};
const openaiClasses: SdkErrorClasses = {
  SdkError: OpenAISdk.OpenAIError,
  APIError: OpenAISdk.APIError,
  APIUserAbortError: OpenAISdk.APIUserAbortError,
  APIConnectionError: OpenAISdk.APIConnectionError,
  APIConnectionTimeoutError: OpenAISdk.APIConnectionTimeoutError,
};
const context: ErrorContext = {
  providerLabel: 'Anthropic',
  model: 'claude-opus-4-7',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  timeoutMs: 1000,
};

function anthropicStatus(status: number, type: string, message: string, extra = {}) {
  const body = { type: 'error', error: { type, message } };
  return AnthropicSdk.APIError.generate(status, body, undefined, headers(extra));
}

describe('toProviderError', () => {
  it.each([
    [429, 'rate_limit_error', 'rate_limited', true],
    [529, 'overloaded_error', 'overloaded', true],
    [500, 'api_error', 'server_error', true],
    [503, 'overloaded_error', 'overloaded', true],
    [401, 'authentication_error', 'auth', false],
    [403, 'permission_error', 'auth', false],
    [404, 'not_found_error', 'not_found', false],
    [400, 'invalid_request_error', 'bad_request', false],
  ] as const)('maps Anthropic %i %s to %s', (status, type, kind, retryable) => {
    const mapped = toProviderError(anthropicStatus(status, type, 'x'), anthropicClasses, context);
    expect(mapped).toMatchObject({ kind, retryable, status });
  });

  it('carries retry-after and the provider sentence into the message', () => {
    const error = anthropicStatus(429, 'rate_limit_error', 'Number of requests exceeded', {
      'retry-after': '3',
    });
    const mapped = toProviderError(error, anthropicClasses, context);
    expect(mapped?.retryAfterMs).toBe(3000);
    expect(mapped?.message).toContain('Number of requests exceeded');
    expect(mapped?.message).toContain('lower the concurrency');
  });

  it('maps a temperature 400 to temperature_rejected (App. R)', () => {
    const error = anthropicStatus(400, 'invalid_request_error', '`temperature` is deprecated');
    expect(toProviderError(error, anthropicClasses, context)?.kind).toBe('temperature_rejected');
    const openaiError = OpenAISdk.APIError.generate(
      400,
      { error: { message: 'Unsupported value', param: 'temperature', code: 'unsupported_value' } },
      undefined,
      headers({}),
    );
    const mapped = toProviderError(openaiError, openaiClasses, { ...context, model: 'o3' });
    expect(mapped?.kind).toBe('temperature_rejected');
  });

  it('names the key variable, or asks for apiKeyEnv when there is none', () => {
    const error = OpenAISdk.APIError.generate(
      401,
      { error: { message: 'bad key' } },
      undefined,
      headers({}),
    );
    const named = toProviderError(error, openaiClasses, { ...context, apiKeyEnv: 'VLLM_KEY' });
    expect(named?.message).toContain('Set VLLM_KEY');
    const unnamed = toProviderError(error, openaiClasses, { ...context, apiKeyEnv: undefined });
    expect(unnamed?.message).toContain('apiKeyEnv');
  });

  it('maps connection, timeout and abort errors', () => {
    const timeout = new AnthropicSdk.APIConnectionTimeoutError();
    const connection = new OpenAISdk.APIConnectionError({ message: 'ECONNREFUSED' });
    expect(toProviderError(timeout, anthropicClasses, context)?.kind).toBe('timeout');
    expect(toProviderError(connection, openaiClasses, context)?.kind).toBe('connection');
    const abort = new AnthropicSdk.APIUserAbortError();
    expect(toProviderError(abort, anthropicClasses, context)?.kind).toBe('aborted');
    const controller = new AbortController();
    controller.abort();
    const signalled = { ...context, signal: controller.signal };
    expect(toProviderError(new Error('anything'), anthropicClasses, signalled)?.kind).toBe(
      'aborted',
    );
  });

  it('passes ProviderErrors through and leaves foreign errors to the caller', () => {
    const own = new ProviderError('bad_response', 'odd');
    expect(toProviderError(own, anthropicClasses, context)).toBe(own);
    expect(toProviderError(new TypeError('bug'), anthropicClasses, context)).toBeUndefined();
    const unreadable = new AnthropicSdk.AnthropicError('could not parse');
    expect(toProviderError(unreadable, anthropicClasses, context)?.kind).toBe('bad_response');
  });
});
