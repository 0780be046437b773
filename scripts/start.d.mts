/** Types of scripts/start.mjs, for its tests. */
export declare function electronBinary(
  electronDir: string,
  env: Readonly<Record<string, string | undefined>>,
): { binary: string; reason: null } | { binary: null; reason: string };
export declare function browserCommand(
  platform: string,
  env: Readonly<Record<string, string | undefined>>,
  url: string,
): { command: string; args: string[] } | null;
export declare function needsBuild(projectRoot: string): boolean;
