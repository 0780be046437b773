/**
 * Turns an untrusted (method, body) pair into a LabResult: the request is parsed with the
 * method's schema before any handler runs, and failures become data, never stacks. In dev
 * and test mode the answer is checked against the response schema too (response-check.ts).
 */
import { isLabMethod, labMethods, type LabMethod } from '../../../shared/lab-api';
import { failure, success, type LabResult } from '../../../shared/result';
import { EngineError } from '../errors';
import type { LabHandler, LabHandlers } from './handlers';
import { checkResponse, validatesResponses } from './response-check';

/** Parses `input` for `method` and runs its handler. */
export async function dispatchLabCall(
  handlers: LabHandlers,
  method: string,
  input: unknown,
): Promise<LabResult<unknown>> {
  if (!isLabMethod(method)) {
    return failure('unknown_method', `There is no LabApi method named "${method}".`);
  }
  const parsed = labMethods[method].request.safeParse(input ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(request)',
      message: issue.message,
    }));
    const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    return failure('bad_request', `Bad request for ${method}: ${summary}.`, issues);
  }
  try {
    const handler = handlers[method] as LabHandler<LabMethod>;
    const result = success(await handler(parsed.data as never));
    return validatesResponses() ? checkResponse(method, result) : result;
  } catch (error) {
    if (error instanceof EngineError)
      return failure(error.code, error.message, problemIssues(error));
    const message = error instanceof Error ? error.message : String(error);
    return failure('internal', `${method} failed inside the engine: ${message}`);
  }
}

/**
 * The row problems of a rejected file (a labels or results import lists every bad row) as
 * issues, so they cross the boundary as data and the CLI prints each one.
 */
function problemIssues(error: EngineError): { path: string; message: string }[] | undefined {
  const problems = (error as { problems?: unknown }).problems;
  if (!Array.isArray(problems) || problems.length === 0) return undefined;
  return problems.map((problem) => ({ path: '(file)', message: String(problem) }));
}

/** True when `method` takes no fields, so a bodiless GET may call it. */
export function acceptsEmptyRequest(method: LabMethod): boolean {
  return labMethods[method].request.safeParse({}).success;
}
