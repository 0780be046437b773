/**
 * Checks a handler's answer against the contract's response schema before it leaves the
 * engine. On in dev and test (NODE_ENV=test or development, or CUELAB_VALIDATE_RESPONSES=1):
 * a handler that drifted from the contract fails loudly there, instead of the client
 * quietly dropping its answer as `bad_response` in front of a user.
 */
import { labMethods, type LabMethod } from '../../../shared/lab-api';
import { failure, type LabResult } from '../../../shared/result';

/** True when this process checks every response (dev/test mode). */
export function validatesResponses(
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  const flag = env.CUELAB_VALIDATE_RESPONSES;
  if (flag === '1' || flag === 'true') return true;
  if (flag === '0' || flag === 'false') return false;
  return env.NODE_ENV === 'test' || env.NODE_ENV === 'development';
}

/**
 * `result` when it is a failure or its value matches `method`'s response schema; otherwise an
 * `internal` failure naming each mismatching field (also written to stderr, so a test log or
 * a dev console shows it even when the caller only looks at the code).
 */
export function checkResponse(method: LabMethod, result: LabResult<unknown>): LabResult<unknown> {
  if (!result.ok) return result;
  // What crosses the wire is JSON: check the value as the client will parse it.
  const wire: unknown = JSON.parse(JSON.stringify(result.value) ?? 'null');
  const parsed = labMethods[method].response.safeParse(wire);
  if (parsed.success) return result;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(response)',
    message: issue.message,
  }));
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  const message = `The engine's answer to ${method} does not match the contract: ${summary}.`;
  process.stderr.write(`cuelab engine: ${message}\n`);
  return failure('internal', message, issues);
}
