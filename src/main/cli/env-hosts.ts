/**
 * `cuelab env hosts`: the Docker engines judge containers run on — the workstation's own plus
 * remote ones. It goes through the engine's LabApi handlers, like the Settings screen.
 */
import { parseArgs } from 'node:util';
import type { DockerHostStatus } from '../../shared/docker-hosts';
import { exitCodes, UsageError, type CliContext, type CliIo } from './command';
import { LabCallError, openLab, unwrap } from './connection';

/** Usage lines of `cuelab env hosts`, shown under `cuelab env --help`. */
export const envHostsUsage = `       cuelab env hosts [--json] [--workspace DIR]
       cuelab env hosts add ID URL --max N [--tls-ca F --tls-cert F --tls-key F] [--ssh-key F]
       cuelab env hosts remove ID

hosts      the Docker engines reps run on: "local" (this machine, DOCKER_HOST or the default
           socket) and remote ones: tcp://HOST:2376 (with --tls-* for --tlsverify daemons),
           ssh://USER@HOST (ssh agent or --ssh-key; the host needs docker), unix:///PATH.
           Each host runs at most --max containers; the least-loaded up host gets the next
           rep, a host that stops answering gets none until it answers again, and its reps
           in flight run again elsewhere. Model calls and keys never leave this machine.
           "add local local --max N" changes this machine's limit. With --engine URL
           --token T it lists and changes that running engine's hosts (file paths are
           then on the engine's machine).`;

/** Runs `cuelab env hosts …` with the arguments after `hosts`. */
export async function envHosts(args: string[], io: CliIo, context?: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      workspace: { type: 'string' },
      json: { type: 'boolean', default: false },
      max: { type: 'string' },
      'tls-ca': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'ssh-key': { type: 'string' },
      disable: { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action = 'list', ...rest] = positionals;
  const session = openLab(context, values.workspace);
  const { api } = session;
  try {
    let hosts: DockerHostStatus[];
    if (action === 'list') {
      if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
      hosts = unwrap(await api.listDockerHosts({}));
    } else if (action === 'add') {
      const [id, url, ...extra] = rest;
      if (!id || !url || extra.length) throw new UsageError('add needs ID and URL');
      const max = Number(values.max);
      if (!values.max || !Number.isInteger(max)) throw new UsageError('add needs --max N');
      const tlsFlags = [values['tls-ca'], values['tls-cert'], values['tls-key']];
      if (tlsFlags.some(Boolean) && !tlsFlags.every(Boolean)) {
        throw new UsageError('TLS needs all of --tls-ca, --tls-cert and --tls-key');
      }
      const saved = await api.saveDockerHost({
        id,
        url,
        maxContainers: max,
        enabled: !values.disable,
        ...(values['tls-ca'] && values['tls-cert'] && values['tls-key']
          ? {
              tls: {
                caPath: values['tls-ca'],
                certPath: values['tls-cert'],
                keyPath: values['tls-key'],
              },
            }
          : {}),
        ...(values['ssh-key'] ? { sshKeyPath: values['ssh-key'] } : {}),
      });
      hosts = unwrap(saved);
    } else if (action === 'remove') {
      const [id, ...extra] = rest;
      if (!id || extra.length) throw new UsageError('remove needs one ID');
      hosts = unwrap(await api.removeDockerHost({ id }));
    } else {
      throw new UsageError(`unknown hosts action "${action}"; use list, add or remove`);
    }
    if (values.json) io.out(JSON.stringify(hosts, null, 2));
    else for (const line of formatHosts(hosts)) io.out(line);
    return hosts.every((host) => host.state === 'up') ? exitCodes.ok : exitCodes.failed;
  } catch (error) {
    if (error instanceof LabCallError) {
      io.err(error.message);
      return exitCodes.failed;
    }
    throw error;
  } finally {
    await session.close();
  }
}

/** One line per host, then the problem of each host that is down. */
export function formatHosts(hosts: readonly DockerHostStatus[]): string[] {
  const lines = hosts.map((host) =>
    [
      host.id.padEnd(12),
      host.state.padEnd(5),
      `docker ${host.dockerVersion ?? '?'}`.padEnd(16),
      `max ${host.maxContainers}`.padEnd(8),
      `running ${host.containersRunning ?? '?'}`.padEnd(11),
      `images ${host.images ?? '?'}`.padEnd(10),
      `base ${host.baseImagePresent === undefined ? '?' : host.baseImagePresent ? 'yes' : 'no'}`.padEnd(
        9,
      ),
      `reps ${host.repsDone}`,
      `  ${host.url}`,
    ].join(' '),
  );
  for (const host of hosts) if (host.problem) lines.push(`${host.id}: ${host.problem}`);
  return lines;
}
