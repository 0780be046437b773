/**
 * The one line `cuelab serve` prints when it is listening. The Electron shell and tests wait
 * for it; a person can open the URL in it, which carries the token as Jupyter's does.
 */
import type { EngineAddress } from './lab-client';

const readyPattern =
  /^CueLab engine ready at (http:\/\/127\.0\.0\.1:\d+\/)\?token=([0-9a-f]{32,})\b/;

/** The ready line for an engine listening at `baseUrl` with `token`. */
export function formatReadyLine(address: EngineAddress, workspace: string): string {
  return `CueLab engine ready at ${address.baseUrl}?token=${address.token} (workspace: ${workspace})`;
}

/** The engine address in a ready line, or null when `line` is not one. */
export function parseReadyLine(line: string): EngineAddress | null {
  const match = readyPattern.exec(line.trim());
  const [, baseUrl, token] = match ?? [];
  return baseUrl && token ? { baseUrl, token } : null;
}
