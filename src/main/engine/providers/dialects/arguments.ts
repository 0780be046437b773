/**
 * Tool-call arguments → `input`. Invalid JSON stays as the raw string so the judge can show
 * the model what it sent; empty arguments (some local servers, no-argument tools) mean `{}`.
 */
export function parseToolArguments(raw: string | undefined): unknown {
  if (raw === undefined || raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
