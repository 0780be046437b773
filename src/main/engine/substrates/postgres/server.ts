/**
 * A PostgreSQL server inside an item's container: made once per item snapshot
 * (a fresh cluster, the roles, the item's dump loaded), stopped cleanly before the commit, and
 * started again in every rep container. It listens on a Unix socket only, so it needs no
 * network, and it runs without fsync: a rep's writes are thrown away with its container, and
 * the snapshot is taken after a clean shutdown, so nothing depends on durability.
 */
import type { PostgresSpec } from '../../../../shared/suite-format';
import type { ContainerRun } from '../../contract';
import { EngineError } from '../../errors';
import { pgClientScript } from './client-script';
import { planDump, type DumpStep } from './dump-plan';

/** Where the item's cluster lives in the container. */
export const postgresDataDir = '/var/lib/postgresql/cuelab';
/** The folder of the server's Unix socket (`PGHOST`). */
export const postgresSocketDir = '/var/run/postgresql';
/** The role the judge's read-only `sql_query` connects as. */
export const readonlyRole = 'judge_readonly';
/** Where the dump is put for loading; deleted once it is loaded. */
export const dumpStagingDir = '/var/lib/cuelab-dump';

const logFile = '/var/lib/postgresql/cuelab.log';
const bin = 'bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)';

// Settings for a small, fast, socket-only server. Crash safety is off (see the file comment).
const serverSettings = [
  "listen_addresses = ''",
  `unix_socket_directories = '${postgresSocketDir}'`,
  'fsync = off',
  'synchronous_commit = off',
  'full_page_writes = off',
  'shared_buffers = 16MB',
  'max_connections = 20',
  'max_wal_size = 64MB',
  'autovacuum = off',
  "log_min_messages = 'warning'",
];

/** The environment a container needs for `psql` to reach the item's database as its owner. */
export function postgresEnvironment(spec: PostgresSpec): string[] {
  return [`PGHOST=${postgresSocketDir}`, `PGUSER=${spec.owner}`, `PGDATABASE=${spec.database}`];
}

/** Where the server's Unix socket is (the protocol client connects to it). */
export const postgresSocket = `${postgresSocketDir}/.s.PGSQL.5432`;
/** The unprivileged user the dump is loaded as (the server maps every OS user but postgres to the owner). */
const loaderUser = 'nobody';

/**
 * Who may connect as whom, by peer authentication (the Unix user the server sees on the
 * socket), never `trust`: only the OS user `postgres` is the superuser; any other user may be
 * the owner or the read-only role, which is what the agent's shell and the judge's tools were
 * in the first place.
 */
function authFiles(spec: PostgresSpec): { hba: string; ident: string } {
  return {
    hba: 'local all all peer map=cuelab\n',
    ident: [
      'cuelab postgres postgres',
      `cuelab /^(.*)$ ${spec.owner}`,
      `cuelab /^(.*)$ ${readonlyRole}`,
      '',
    ].join('\n'),
  };
}

/** Root script: a fresh cluster with the item's settings, the owner and read-only roles. */
function initScript(spec: PostgresSpec): string {
  const auth = authFiles(spec);
  return `set -e
${bin}
command -v python3 >/dev/null || { echo "the PostgreSQL substrate needs python3 in the image (its query client)"; exit 1; }
mkdir -p ${postgresSocketDir} ${postgresDataDir}
chown postgres:postgres ${postgresSocketDir} ${postgresDataDir}
chmod 2777 ${postgresSocketDir}
runuser -u postgres -- "$bin/initdb" -D ${postgresDataDir} --auth-local=peer --auth-host=reject \\
  --encoding=UTF8 --locale=C --no-sync --no-instructions >/dev/null
cat >> ${postgresDataDir}/postgresql.conf <<'CONF'
${serverSettings.join('\n')}
CONF
cat > ${postgresDataDir}/pg_hba.conf <<'CONF'
${auth.hba}CONF
cat > ${postgresDataDir}/pg_ident.conf <<'CONF'
${auth.ident}CONF
chown postgres:postgres ${postgresDataDir}/pg_hba.conf ${postgresDataDir}/pg_ident.conf
chmod 600 ${postgresDataDir}/pg_hba.conf ${postgresDataDir}/pg_ident.conf
touch ${logFile}; chown postgres:postgres ${logFile}
runuser -u postgres -- "$bin/pg_ctl" -D ${postgresDataDir} -l ${logFile} -w -t 60 -s start
runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -U postgres -d postgres <<'SQL'
CREATE ROLE ${spec.owner} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS;
CREATE DATABASE ${spec.database} OWNER ${spec.owner};
CREATE ROLE ${readonlyRole} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS;
GRANT pg_read_all_data TO ${readonlyRole};
ALTER ROLE ${readonlyRole} SET default_transaction_read_only = on;
SQL
runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -U postgres -d ${spec.database} \\
  -c 'ALTER SCHEMA public OWNER TO ${spec.owner}'`;
}

/**
 * Root script: loads the dumps the spec gives as the owner, through an unprivileged OS user
 * (pg_restore for an archive, the protocol client for plain SQL: no psql, so no
 * meta-command), then deletes the staging copy.
 */
function loadScript(spec: PostgresSpec): string {
  const lines = ['set -e', `chmod -R a+rX ${dumpStagingDir}`];
  if (spec.archive !== undefined) {
    lines.push(
      `runuser -u ${loaderUser} -- pg_restore --no-owner --exit-on-error ` +
        `-h ${postgresSocketDir} -U ${spec.owner} -d ${spec.database} ${dumpStagingDir}/archive.dump`,
    );
  }
  lines.push(
    `runuser -u ${loaderUser} -- python3 -c "$1" load ${postgresSocket} ${spec.owner} ` +
      `${spec.database} ${dumpStagingDir}/plan.json`,
  );
  lines.push(`rm -rf ${dumpStagingDir}`);
  return lines.join('\n');
}

/** The plain-SQL dumps of `spec` as steps for the protocol client, or why they cannot load. */
export type DumpPlan = { steps: DumpStep[] } | { problem: string };

/** Plans the spec's `dumpFile` (from `files`) and then its `sql`, in the order they load. */
export function planDumps(spec: PostgresSpec, files: Readonly<Record<string, string>>): DumpPlan {
  try {
    const steps: DumpStep[] = [];
    if (spec.dumpFile !== undefined) {
      steps.push(...planDump(files[spec.dumpFile] ?? '', `postgres.dumpFile ${spec.dumpFile}`));
    }
    if (spec.sql !== undefined) steps.push(...planDump(spec.sql, 'postgres.sql'));
    return { steps };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** Files the dump needs staged in the container (relative to "/"), for the state archive. */
export function dumpFiles(
  spec: PostgresSpec,
  plan: DumpPlan,
): { path: string; content: string | Buffer }[] {
  const staging = dumpStagingDir.slice(1);
  const files: { path: string; content: string | Buffer }[] = [];
  if ('steps' in plan) {
    files.push({ path: `${staging}/plan.json`, content: JSON.stringify(plan.steps) });
  }
  if (spec.archive !== undefined) {
    files.push({ path: `${staging}/archive.dump`, content: Buffer.from(spec.archive, 'base64') });
  }
  return files;
}

/**
 * In a prepare container (root, after the spec's files are in place): makes the cluster, starts
 * it and loads the dump. The server keeps running for `setup` and `replay`.
 */
export async function createPostgresState(
  run: ContainerRun,
  spec: PostgresSpec,
  plan: DumpPlan,
  signal?: AbortSignal,
): Promise<void> {
  if ('problem' in plan) throw new EngineError('bad_request', plan.problem);
  await rootScript(run, initScript(spec), 'creating the PostgreSQL cluster', signal);
  await rootScript(run, loadScript(spec), 'loading the PostgreSQL dump', signal, [pgClientScript]);
}

/** Checks the owner can query the database; run before the snapshot. */
export async function checkPostgres(
  run: ContainerRun,
  spec: PostgresSpec,
  signal?: AbortSignal,
): Promise<void> {
  await rootScript(
    run,
    `psql -X -q -At -U ${spec.owner} -d ${spec.database} -c 'SELECT 1' >/dev/null`,
    'the PostgreSQL health check',
    signal,
  );
}

/** Stops the server cleanly (a checkpoint, so the snapshot needs no recovery when started). */
export async function stopPostgres(run: ContainerRun, signal?: AbortSignal): Promise<void> {
  await rootScript(
    run,
    `${bin}\nrunuser -u postgres -- "$bin/pg_ctl" -D ${postgresDataDir} -m fast -w -t 60 -s stop`,
    'stopping PostgreSQL',
    signal,
  );
}

/** Starts the server in a rep container made from a snapshot; resolves once it accepts queries. */
export async function startPostgres(run: ContainerRun, signal?: AbortSignal): Promise<void> {
  const result = await run(
    [
      'sh',
      '-c',
      `${bin}\nexec "$bin/pg_ctl" -D ${postgresDataDir} -l ${logFile} -w -t 60 -s start`,
    ],
    {
      user: 'postgres',
      timeoutMs: 90_000,
      maxOutputBytes: 64 * 1024,
      ...(signal ? { signal } : {}),
    },
  );
  if (result.exitCode !== 0) {
    const output = `${result.stdout.toString()}${result.stderr.toString()}`.trim().slice(-2000);
    throw new EngineError('internal', `PostgreSQL did not start in the rep container: ${output}`);
  }
}

async function rootScript(
  run: ContainerRun,
  script: string,
  what: string,
  signal: AbortSignal | undefined,
  args: readonly string[] = [],
): Promise<void> {
  const result = await run(['sh', '-c', script, 'sh', ...args], {
    user: '0',
    timeoutMs: 10 * 60_000,
    maxOutputBytes: 64 * 1024,
    ...(signal ? { signal } : {}),
  });
  if (result.exitCode !== 0) {
    const output = `${result.stdout.toString()}${result.stderr.toString()}`.trim().slice(-2000);
    throw new EngineError(
      'bad_request',
      `Failed ${what} (exit ${result.exitCode ?? 'killed'}): ${output}`,
    );
  }
}
