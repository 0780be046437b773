/**
 * What a suite's image may start from, and the caps its Dockerfile builds under. A suite is
 * written by a stranger: its `RUN` steps run as root on this machine's Docker engine, so a
 * build gets the judge container's own limits (no network unless the user's cap allows the
 * item's, its memory and CPU), and every image it names passes the one rule `image:` passes.
 *
 * The rule: an item starts from a CueLab bootstrapped image or an image the suite names
 * (present here, or pulled where a registry answers), never from an image CueLab made from
 * another item (`cuelab.kind` `item` or `build`: another item's end state or build, under any
 * name or id it is given), and never from an image whose ONBUILD triggers would run
 * instructions this check cannot see.
 */
import type Docker from 'dockerode';
import { EngineError } from '../../errors';
import { dockerLabels } from './client';
import { findImage } from './images';
import type { DockerItemSettings } from './item-settings';

/** Image kinds CueLab makes from items; never a start for another item. */
const derivedKinds = new Set(['item', 'build']);

/** Refuses `reference` (named by `what`, e.g. "FROM on line 3") when the rule above forbids it. */
export async function checkStartImage(
  docker: Docker,
  reference: string,
  what: string,
): Promise<void> {
  const image = await findImage(docker, reference);
  // Not here: Docker pulls it where a registry answers, so it holds nothing of this machine's.
  if (!image) return;
  const kind = image.Config.Labels?.[dockerLabels.kind];
  if (kind && derivedKinds.has(kind)) {
    throw new EngineError(
      'bad_request',
      `${what} names ${reference}, an image CueLab made from another item (${dockerLabels.kind}=` +
        `${kind}); an item may start only from cuelab/base, cuelab/postgres or an image of its ` +
        'own (present here or from a registry). Fix: start from cuelab/base:latest.',
    );
  }
  if ((image.Config.OnBuild ?? []).length > 0) {
    throw new EngineError(
      'bad_request',
      `${what} names ${reference}, whose ONBUILD triggers would run unchecked in this build. ` +
        'Fix: start from an image without ONBUILD triggers (e.g. cuelab/base:latest).',
    );
  }
}

/** An image a Dockerfile starts from or copies out of, with where it says so. */
export interface DockerfileImage {
  reference: string;
  line: number;
  instruction: 'FROM' | 'COPY --from';
}

/**
 * The images `dockerfile` reads (each `FROM`, and `COPY --from=` that is not a build stage),
 * as the classic builder parses it (continuations, comments, case-free instructions). Throws
 * on what would hide an image or a download from this check: a variable in an image name, a
 * changed escape character, `ADD` from a URL (the engine fetches it, network or not).
 */
export function dockerfileImages(dockerfile: string): DockerfileImage[] {
  const lines = dockerfile.split(/\r?\n/);
  const refuse = (line: number, problem: string): never => {
    throw new EngineError('bad_request', `environment.dockerfile: line ${line}: ${problem}`);
  };
  const found: DockerfileImage[] = [];
  const stages = new Set<string>();
  for (const [index, text] of lines.entries()) {
    if (/^\s*#\s*escape\s*=/i.test(text)) refuse(index + 1, 'the escape directive is not allowed');
    if (!/^\s*#\s*\w+\s*=/.test(text)) break;
  }
  for (const { text, line } of instructions(lines)) {
    const [keyword = '', ...words] = text.split(/\s+/);
    const upper = keyword.toUpperCase();
    const flags = words.filter((word) => word.startsWith('--'));
    const rest = words.filter((word) => !word.startsWith('--'));
    if (upper === 'FROM') {
      const reference = rest[0] ?? refuse(line, 'FROM names no image');
      if (reference.includes('$')) refuse(line, `FROM ${reference}: name the image, no variables`);
      if (rest[1]?.toUpperCase() === 'AS' && rest[2]) stages.add(rest[2].toLowerCase());
      if (reference.toLowerCase() !== 'scratch' && !stages.has(reference.toLowerCase()))
        found.push({ reference, line, instruction: 'FROM' });
    } else if (upper === 'COPY' || upper === 'ADD') {
      for (const flag of flags) {
        const from = /^--from=(.*)$/i.exec(flag)?.[1];
        if (from === undefined) continue;
        if (from.includes('$')) refuse(line, `--from=${from}: name the image, no variables`);
        if (!stages.has(from.toLowerCase()) && !/^\d+$/.test(from))
          found.push({ reference: from, line, instruction: 'COPY --from' });
      }
      if (upper === 'ADD' && rest.some((word) => /^[a-z][a-z0-9+.-]*:\/\/|^git@/i.test(word)))
        refuse(line, 'ADD from a URL downloads past the build network cap; COPY a context file');
    }
  }
  return found;
}

/** The Dockerfile's instructions, continuation lines joined, comments and blanks dropped. */
function instructions(lines: readonly string[]): { text: string; line: number }[] {
  const result: { text: string; line: number }[] = [];
  let pending: { text: string; line: number } | undefined;
  for (const [index, raw] of lines.entries()) {
    const trimmed = raw.trim();
    // The classic builder drops comment lines even inside a continued instruction.
    if (trimmed.startsWith('#') || (!trimmed && !pending)) continue;
    const continued = trimmed.endsWith('\\');
    const part = continued ? trimmed.slice(0, -1) : trimmed;
    pending = pending
      ? { ...pending, text: `${pending.text} ${part}` }
      : { text: part, line: index + 1 };
    if (!continued) {
      result.push({ ...pending, text: pending.text.trim() });
      pending = undefined;
    }
  }
  if (pending) result.push({ ...pending, text: pending.text.trim() });
  return result;
}

/** Checks every image `dockerfile` reads against the rule, before anything is built. */
export async function checkDockerfileImages(docker: Docker, dockerfile: string): Promise<void> {
  for (const image of dockerfileImages(dockerfile))
    await checkStartImage(docker, image.reference, `${image.instruction} on line ${image.line}`);
}

/** The limits of a suite's build: as the judge's container, network included. */
export interface BuildCaps {
  /** Docker's `networkmode` for RUN steps: `none` unless the item's network is allowed. */
  networkMode: 'none' | 'default';
  memoryBytes: number;
  cpus: number;
  /** The whole build's wall-clock limit. */
  timeoutMs: number;
}

/**
 * The caps for building `settings`' item. Docker API 1.41's /build takes no pids limit; the
 * memory limit bounds a fork bomb there (each process costs memory), and the time limit ends it.
 */
export function buildCaps(settings: DockerItemSettings, timeoutMs: number): BuildCaps {
  return {
    networkMode: settings.network ? 'default' : 'none',
    memoryBytes: settings.resources.memoryMb * 1024 * 1024,
    cpus: settings.resources.cpus,
    timeoutMs,
  };
}
