/**
 * The workspace's Docker hosts. Each row is parsed with the shared schema when read, so a row
 * edited by hand that no longer fits is reported by id instead of reaching dockerode.
 */
import {
  dockerHostConfigSchema,
  LOCAL_DOCKER_HOST_ID,
  type DockerHostConfig,
} from '../../../shared/docker-hosts';
import { EngineError } from '../errors';
import type { Store } from './database';
import { readJsonColumn } from './json-column';

/** The limit of the workstation's own engine when the workspace does not set one. */
export const DEFAULT_LOCAL_MAX_CONTAINERS = 64;

/** The workstation's engine as configured (implicit unless overridden). */
export function localHostConfig(maxContainers = DEFAULT_LOCAL_MAX_CONTAINERS): DockerHostConfig {
  return { id: LOCAL_DOCKER_HOST_ID, url: LOCAL_DOCKER_HOST_ID, maxContainers, enabled: true };
}

/** Every host of the workspace, `local` first. */
export function listDockerHosts(store: Store): DockerHostConfig[] {
  const rows = store.db
    .prepare('SELECT id, config_json FROM docker_hosts ORDER BY added_at, id')
    .all() as { id: string; config_json: string }[];
  let local = localHostConfig();
  const remote: DockerHostConfig[] = [];
  for (const row of rows) {
    const parsed = dockerHostConfigSchema.safeParse(
      readJsonColumn(row.config_json, { table: 'docker_hosts', row: row.id, field: 'config_json' }),
    );
    if (!parsed.success) {
      throw new EngineError(
        'internal',
        `Docker host "${row.id}" in the workspace is malformed (${parsed.error.issues[0]?.message}); ` +
          `remove it with: cuelab env hosts remove ${row.id}`,
      );
    }
    if (parsed.data.id === LOCAL_DOCKER_HOST_ID) local = parsed.data;
    else remote.push(parsed.data);
  }
  return [local, ...remote];
}

/** Adds or replaces a host. `local` may only change its limit and enabled flag. */
export function saveDockerHost(store: Store, input: unknown): DockerHostConfig {
  const parsed = dockerHostConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError(
      'bad_request',
      `Docker host: ${issue?.path.join('.') || '(host)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const host = parsed.data;
  if ((host.id === LOCAL_DOCKER_HOST_ID) !== (host.url === LOCAL_DOCKER_HOST_ID)) {
    throw new EngineError(
      'bad_request',
      'Docker host: the id "local" is the workstation\'s own engine, with url "local"',
    );
  }
  store.db
    .prepare(
      `INSERT INTO docker_hosts (id, config_json, added_at) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET config_json = excluded.config_json`,
    )
    .run(host.id, JSON.stringify(host), new Date().toISOString());
  return host;
}

/** Removes a host; true when it existed. Removing `local` restores its defaults. */
export function removeDockerHost(store: Store, id: string): boolean {
  return store.db.prepare('DELETE FROM docker_hosts WHERE id = ?').run(id).changes > 0;
}
