/**
 * Part (d): what the PostgreSQL substrate adds to a rep's start. Two item snapshots
 * hold the same small state, one in files on the base image, one in a PostgreSQL database (the
 * `mini-postgres` shop dump) on the Postgres image. Each rep is `startRep` (create, start, and for
 * Postgres the server's start, until it accepts queries), one query through the judge's tool
 * (`sql_query` or a `cat`), and dispose. The two kinds alternate so background load hits both.
 * Prints the medians and the ratio of rep start with Postgres to rep start without.
 */
import { createDockerClient } from '../src/main/engine/environments/docker/client';
import { findBaseImage, findPostgresImage } from '../src/main/engine/environments/docker/bootstrap';
import { prepareItem, type PreparedItem } from '../src/main/engine/environments/docker/prepare';
import { startRep } from '../src/main/engine/environments/docker/rep';
import { probeDocker } from '../src/main/engine/environments/docker-status';
import { defaultToolLimits } from '../src/main/engine/contract/environment';
import { shopDump } from '../src/main/engine/suites/mini/postgres-recipe';
import { environmentSpecSchema } from '../src/shared/suite-format';
import { alternating, now, round, rounded, summarize, type Summary } from './measure';

/** What part (d) measured, or why it was skipped. */
export type PostgresStartResult =
  | { status: 'skipped'; reason: string; fix: string }
  | {
      status: 'ok';
      reps: number;
      /** Preparing each snapshot once (the Postgres one loads the dump and stops cleanly). */
      snapshotPrepareMs: { plain: number; postgres: number };
      startMs: { plain: Summary; postgres: Summary };
      /** Start plus one query plus dispose. */
      repMs: { plain: Summary; postgres: Summary };
      /** Median Postgres rep start ÷ median plain rep start. */
      startRatio: number;
    };

interface Sample {
  start: number;
  total: number;
}

async function oneRep(prepared: PreparedItem): Promise<Sample> {
  const started = now();
  const rep = await startRep(prepared);
  const start = now() - started;
  try {
    if (prepared.state) {
      await rep.environment.sqlQuery('SELECT count(*) FROM orders', defaultToolLimits);
    } else {
      await rep.environment.exec('cat orders.csv | wc -l', defaultToolLimits);
    }
  } finally {
    await rep.dispose();
  }
  return { start, total: now() - started };
}

/** Runs part (d) with `reps` reps of each kind (plus one warm-up of each). */
export async function benchPostgresStart(
  reps: number,
  log: (line: string) => void,
): Promise<PostgresStartResult> {
  const docker = createDockerClient();
  const status = await probeDocker(3000, docker);
  if (!status.available) {
    return {
      status: 'skipped',
      reason: status.problem ?? 'Docker is not reachable.',
      fix: status.fix ?? 'Start Docker.',
    };
  }
  if (!(await findBaseImage(docker)) || !(await findPostgresImage(docker))) {
    return {
      status: 'skipped',
      reason: 'The base or the PostgreSQL image is not built on this machine.',
      fix: 'node bin/cuelab.js env bootstrap && node bin/cuelab.js env bootstrap --postgres',
    };
  }
  const plainSpec = environmentSpecSchema.parse({
    shell: true,
    files: { 'orders.csv': 'id,customer_id,total_cents\n5001,8,637\n' },
  });
  const postgresSpec = environmentSpecSchema.parse({ shell: true, postgres: { sql: shopDump } });
  let started = now();
  const plain = await prepareItem(plainSpec, 'bench-plain-start');
  const plainPrepare = now() - started;
  started = now();
  const postgres = await prepareItem(postgresSpec, 'bench-postgres-start');
  const postgresPrepare = now() - started;
  log(
    `  snapshots ready (plain ${Math.round(plainPrepare)} ms, postgres ` +
      `${Math.round(postgresPrepare)} ms${postgres.reused ? ', reused' : ''})`,
  );
  await oneRep(plain);
  await oneRep(postgres);
  const measured = await alternating(
    reps,
    () => oneRep(plain),
    () => oneRep(postgres),
    (rep, a, b) =>
      log(
        `  rep ${rep + 1}/${reps}: start plain ${Math.round(a.start)} ms, ` +
          `postgres ${Math.round(b.start)} ms`,
      ),
  );
  const samples = { plain: measured.first, postgres: measured.second };
  const startMs = {
    plain: rounded(summarize(samples.plain.map((sample) => sample.start))),
    postgres: rounded(summarize(samples.postgres.map((sample) => sample.start))),
  };
  return {
    status: 'ok',
    reps,
    snapshotPrepareMs: { plain: round(plainPrepare), postgres: round(postgresPrepare) },
    startMs,
    repMs: {
      plain: rounded(summarize(samples.plain.map((sample) => sample.total))),
      postgres: rounded(summarize(samples.postgres.map((sample) => sample.total))),
    },
    startRatio: round(startMs.postgres.median / startMs.plain.median, 2),
  };
}

/** The summary lines of part (d). */
export function printPostgresStart(result: PostgresStartResult): string[] {
  if (result.status === 'skipped') return [`(d) Postgres rep start: skipped (${result.reason})`];
  return [
    `(d) Postgres rep start (${result.reps} reps each): start median plain ` +
      `${result.startMs.plain.median} ms, with Postgres ${result.startMs.postgres.median} ms ` +
      `(p90 ${result.startMs.postgres.p90} ms); ratio with/without ${result.startRatio}x; ` +
      `rep with one query ${result.repMs.plain.median} vs ${result.repMs.postgres.median} ms`,
  ];
}
