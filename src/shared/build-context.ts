/**
 * The bounds of a suite's Docker build context (`environment.buildContext`): file bytes as
 * base64, counted and measured without decoding, so the window can check a suite as the
 * engine does.
 */

/** How large a suite's build context may be: files, and their decoded bytes in total. */
export const buildContextLimits = { maxFiles: 1000, maxBytes: 16 * 1024 * 1024 } as const;

/** Decoded size of canonical base64 text, or undefined when it is not base64. */
export function base64Bytes(text: string): number | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
}

/** Why a build context cannot be sent, or undefined when it can. */
export function buildContextProblem(context: Record<string, string>): string | undefined {
  const entries = Object.entries(context);
  if (entries.length > buildContextLimits.maxFiles)
    return `has ${entries.length} files; at most ${buildContextLimits.maxFiles} are allowed`;
  let total = 0;
  for (const [path, content] of entries) {
    // The Dockerfile is `dockerfile`; a second one in the context would be built instead.
    if (path === 'Dockerfile' || path === '.dockerignore')
      return `${path}: give it as dockerfile, not in the build context`;
    const bytes = base64Bytes(content);
    if (bytes === undefined) return `${path}: is not base64 (file bytes are sent as base64)`;
    total += bytes;
  }
  if (total > buildContextLimits.maxBytes)
    return `holds ${total} bytes; at most ${buildContextLimits.maxBytes} (16 MiB) are allowed`;
  return undefined;
}
