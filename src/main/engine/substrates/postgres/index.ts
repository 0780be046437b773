/**
 * The PostgreSQL substrate (AJ-Bench Postgres, §2): a server in the item's container holding the
 * agent's end state. It adds no tool of its own (the sql substrate's `sql_query` reaches it
 * through the environment); what it adds is its part in the Docker backend's preparation and
 * reps, as a ContainerState the machinery calls.
 */
import { postgresName, postgresOf } from '../../../../shared/substrates/postgres';
import type { PostgresSpec } from '../../../../shared/suite-format';
import type { ContainerState } from '../../contract';
import type { Substrate } from '../substrate';
import { postgresQuery, queryRole } from './query';
import {
  checkPostgres,
  createPostgresState,
  dumpFiles,
  planDumps,
  type DumpPlan,
  postgresEnvironment,
  startPostgres,
  stopPostgres,
} from './server';

/** The Postgres sentence of the description: which database, which role, what it may do. */
function postgresDescription(postgres: PostgresSpec): string {
  const access =
    postgres.access === 'read-write' ? 'and may change it' : 'read-only (it cannot change data)';
  return (
    ` A PostgreSQL server in the container holds the database "${postgres.database}" ` +
    `(the agent worked as role "${postgres.owner}"; psql in the shell connects there by ` +
    `default). sql_query runs as role "${queryRole(postgres)}", ${access}.`
  );
}

// 2: peer authentication instead of trust, dumps loaded by the protocol client.
const stateFormat = 2;

function postgresState(
  spec: PostgresSpec,
  files: Readonly<Record<string, string>>,
): ContainerState {
  // Planned when first needed (staging or loading), not whenever the state is looked at.
  let planned: DumpPlan | undefined;
  const plan = () => (planned ??= planDumps(spec, files));
  return {
    image: { kind: postgresName, label: 'PostgreSQL image' },
    format: stateFormat,
    environment: postgresEnvironment(spec),
    get stagedFiles() {
      return dumpFiles(spec, plan());
    },
    // The server writes its log and run files even when the judge has no shell.
    writableRoot: true,
    description: postgresDescription(spec),
    load: (run, _workdir, signal) => createPostgresState(run, spec, plan(), signal),
    async seal(run, signal) {
      await checkPostgres(run, spec, signal);
      // A clean shutdown: reps start from a checkpointed cluster, with no recovery to run.
      await stopPostgres(run, signal);
    },
    start: (run, signal) => startPostgres(run, signal),
    query: (run, sql, limits) => postgresQuery({ spec, run }, sql, limits),
  };
}

/** The PostgreSQL substrate. */
export const postgresSubstrate: Substrate = {
  name: postgresName,
  tools: [],
  servedBy: () => false,
  containerState(spec) {
    const postgres = postgresOf(spec);
    return postgres ? postgresState(postgres, spec.files) : undefined;
  },
};
