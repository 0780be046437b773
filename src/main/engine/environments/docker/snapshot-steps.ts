/**
 * The steps that bring a prepare container to the agent's final state and check it before the
 * snapshot: the spec's files (and database) as one archive, shell steps as root, the judge's
 * user, and the health check.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import type Docker from 'dockerode';
import type { EnvironmentSpec } from '../../../../shared/suite-format';
import { EngineError } from '../../errors';
import { packArchive, type ArchiveEntry } from './archive';
import { buildItemDatabase, databaseLabel } from '../item-sql';
import { execInContainer } from './exec';
import {
  containerCapFromEnv,
  dockerDefaults,
  isRootUser,
  shellQuote,
  type DockerItemSettings,
} from './item-settings';
import { sqliteDatabaseOf } from '../../../../shared/substrates/sqlite';
import { containerStateOf } from '../../substrates';

/** Tools the judge environment uses when the image has them. */
export interface ContainerTools {
  /** GNU coreutils `timeout`: kills a runaway command's process group inside the container. */
  timeout: boolean;
  python3: boolean;
  sqlite3: boolean;
}

/**
 * The spec's files under `workdir`, the database built from its SQL, and a Postgres dump to
 * load, as a tar for "/".
 */
export async function stateArchive(
  spec: EnvironmentSpec,
  settings: DockerItemSettings,
  itemId?: string,
): Promise<Buffer> {
  const database = sqliteDatabaseOf(spec);
  const root = settings.workdir.replace(/^\/+/, '');
  const entries: ArchiveEntry[] = [{ path: root || '.', type: 'directory', mode: 0o755 }];
  for (const [path, content] of Object.entries(spec.files)) {
    if (path === database?.path && database.sql) continue;
    entries.push({ path: posix.join(root, path), content });
  }
  if (database?.sql) {
    entries.push({
      path: posix.join(root, database.path),
      content: await buildDatabase(spec.files[database.path], database.sql, itemId),
    });
  }
  // A substrate's files (a Postgres dump) are staged outside the working folder.
  entries.push(...(containerStateOf(spec)?.stagedFiles ?? []));
  return packArchive(entries.filter((entry) => entry.path !== '.'));
}

/**
 * Builds the SQLite file on the host (no sqlite in the image needed), like the snapshot
 * backend, inside the SQL sandbox (item-sql.ts) that cannot reach any other file.
 */
async function buildDatabase(
  initial: string | undefined,
  sql: string,
  itemId: string | undefined,
): Promise<Buffer> {
  const folder = await mkdtemp(join(tmpdir(), 'cuelab-db-'));
  try {
    const path = join(folder, 'state.db');
    if (initial !== undefined) await writeFile(path, initial);
    await buildItemDatabase(path, sql, databaseLabel(itemId));
    return await readFile(path);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Runs one shell step as root in `workdir`; resolves to its exit code and output tail. */
export async function runRootStep(
  container: Docker.Container,
  command: string,
  settings: DockerItemSettings,
  tools: ContainerTools,
  signal?: AbortSignal,
): Promise<{ exitCode: number | null; timedOut: boolean; output: string }> {
  const result = await execInContainer(container, ['sh', '-c', command], {
    user: '0',
    workdir: settings.workdir,
    timeoutMs: dockerDefaults.setupTimeoutMs,
    maxOutputBytes: 64 * 1024,
    useTimeoutCommand: tools.timeout,
    ...(signal ? { signal } : {}),
  });
  const output = `${result.stdout.toString()}${result.stderr.toString()}`.trim().slice(-2000);
  return { exitCode: result.exitCode, timedOut: result.timedOut, output };
}

// GNU `timeout` only: busybox's kills the direct child and leaves its children running.
const detectScript = `timeout --version 2>/dev/null | grep -q coreutils && echo timeout
for t in python3 sqlite3; do command -v "$t" >/dev/null 2>&1 && echo "$t"; done; true`;

/** Which of the judge environment's helper tools the image has. */
export async function detectTools(
  container: Docker.Container,
  signal?: AbortSignal,
): Promise<ContainerTools> {
  const result = await execInContainer(container, ['sh', '-c', detectScript], {
    user: '0',
    timeoutMs: 30_000,
    maxOutputBytes: 4096,
    useTimeoutCommand: false,
    ...(signal ? { signal } : {}),
  });
  const found = new Set(result.stdout.toString().split('\n').filter(Boolean));
  return {
    timeout: found.has('timeout'),
    python3: found.has('python3'),
    sqlite3: found.has('sqlite3'),
  };
}

// Creates a user (first free uid/gid from 1000) when the image lacks it; works without useradd.
const ensureUserScript = `set -e
name="$1"
if ! grep -q "^$name:" /etc/passwd 2>/dev/null; then
  uid=1000; while cut -d: -f3 /etc/passwd 2>/dev/null | grep -qx "$uid"; do uid=$((uid+1)); done
  gid=$uid; while cut -d: -f3 /etc/group 2>/dev/null | grep -qx "$gid"; do gid=$((gid+1)); done
  echo "$name:x:$gid:" >> /etc/group
  echo "$name:x:$uid:$gid:CueLab judge:/home/$name:/bin/sh" >> /etc/passwd
  mkdir -p "/home/$name"; chown "$uid:$gid" "/home/$name"
fi`;

/**
 * Makes the judge's user exist (named users are created when missing) and gives it `workdir`,
 * so commands a judge runs there (tests writing caches, say) behave as they did for the agent.
 */
export async function prepareUser(
  container: Docker.Container,
  settings: DockerItemSettings,
  tools: ContainerTools,
  signal?: AbortSignal,
): Promise<void> {
  const { user, workdir } = settings;
  if (isRootUser(user)) return;
  const numeric = /^\d+(:\d+)?$/.test(user);
  const script = numeric
    ? 'chown -R "$1" "$2"'
    : `${ensureUserScript}\nchown -R "$(id -u "$name"):$(id -g "$name")" "$2"`;
  const step = await runRootStep(
    container,
    `set -- ${shellQuote(user)} ${shellQuote(workdir)}\n${script}`,
    settings,
    tools,
    signal,
  );
  if (step.exitCode !== 0) {
    throw new EngineError('bad_request', `Could not set up user "${user}": ${step.output}`);
  }
}

/**
 * The health check before a snapshot: the container answers as the judge's user, that user is
 * not uid 0 unless the user's cap allows root (an image may map any name to uid 0, which no
 * look at the name can tell), and the database (and, unless the end state came from replay,
 * the files) the spec names exist.
 */
export async function checkHealth(
  container: Docker.Container,
  spec: EnvironmentSpec,
  settings: DockerItemSettings,
  signal?: AbortSignal,
  allowRoot = containerCapFromEnv(process.env).allowRoot,
): Promise<void> {
  const database = sqliteDatabaseOf(spec);
  const paths = [
    ...(settings.replay.length > 0 ? [] : Object.keys(spec.files)),
    ...(database ? [database.path] : []),
  ];
  const result = await execInContainer(
    container,
    ['sh', '-c', 'id -u; for p; do [ -e "$p" ] || echo "$p"; done; true', 'sh', ...paths],
    {
      user: settings.user,
      workdir: settings.workdir,
      timeoutMs: 30_000,
      maxOutputBytes: 64 * 1024,
      useTimeoutCommand: false,
      ...(signal ? { signal } : {}),
    },
  );
  if (result.exitCode !== 0) {
    throw new EngineError(
      'internal',
      `Health check failed: the container did not answer as "${settings.user}" ` +
        `(exit ${result.exitCode ?? 'killed'}): ${result.stderr.toString().trim()}`,
    );
  }
  const [uid, ...missing] = result.stdout.toString().split('\n').filter(Boolean);
  if (uid?.trim() === '0' && !allowRoot) {
    throw new EngineError(
      'bad_request',
      `environment.user ${settings.user} is uid 0 (root) in this image, which is beyond this ` +
        "machine's container cap; the suite cannot raise it (you can, in your own " +
        'environment: CUELAB_CONTAINER_ALLOW_ROOT=1).',
    );
  }
  if (missing.length > 0) {
    throw new EngineError(
      'bad_request',
      `Health check failed: ${missing.join(', ')} missing under ${settings.workdir} after setup.`,
    );
  }
}
