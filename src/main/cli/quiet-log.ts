/**
 * Long build output (debootstrap, `docker build` of an item's image) goes to a log file; the
 * terminal gets one line per build naming that file, so `cuelab demo` and `cuelab run` stay
 * readable. Each build is appended to the file under its title.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from './command';

/** Where this machine's Docker build output of the last command went. */
export function dockerLogPath(): string {
  return join(tmpdir(), 'cuelab-docker-build.log');
}

/**
 * A progress sink for one build: every line goes to `path`, only the first to the terminal
 * (with the file's name). A log that cannot be written costs the log, never the build.
 */
export function quietProgress(io: CliIo, path: string, title: string): (line: string) => void {
  let started = false;
  return (line) => {
    try {
      if (!started) writeFileSync(path, `${title}\n`, { flag: 'a' });
      appendFileSync(path, `${line}\n`);
    } catch {
      // Best effort: the terminal line below still says what is happening.
    }
    if (!started) io.out(`  ${title} (full output: ${path})`);
    started = true;
  };
}
