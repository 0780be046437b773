import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { DockerHostStatus } from '../../../shared/docker-hosts';
import { labClientFor } from '../../lib/engine-client';
import { useLab } from '../../store';

function StateBadge({ host }: { host: DockerHostStatus }) {
  const kind =
    host.state === 'up' ? 'badge badge-ok' : host.state === 'down' ? 'badge badge-warn' : 'badge';
  return <span className={kind}>{host.state}</span>;
}

/**
 * The Docker engines reps run on: this machine's and remote ones (tcp with TLS, ssh), each
 * with its container limit, reachability, images, containers and reps. Hosts only run the
 * judge's tool commands; model calls and keys stay in the engine.
 */
export function DockerHostsPanel() {
  const headingId = useId();
  const address = useLab((state) => state.address);
  const [hosts, setHosts] = useState<DockerHostStatus[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [id, setId] = useState('');
  const [url, setUrl] = useState('');
  const [max, setMax] = useState('8');

  const apply = useCallback(
    async (
      call: () => Promise<
        { ok: true; value: DockerHostStatus[] } | { ok: false; error: { message: string } }
      >,
    ) => {
      setBusy(true);
      const result = await call();
      setBusy(false);
      if (result.ok) {
        setHosts(result.value);
        setProblem(null);
      } else setProblem(result.error.message);
      return result.ok;
    },
    [],
  );
  const refresh = useCallback(() => {
    if (!address) return;
    void apply(() => labClientFor(address).listDockerHosts({}));
  }, [address, apply]);
  // The first look: no synchronous state change in the effect, only when the answer comes.
  useEffect(() => {
    if (!address) return;
    let live = true;
    void labClientFor(address)
      .listDockerHosts({})
      .then((result) => {
        if (!live) return;
        if (result.ok) setHosts(result.value);
        else setProblem(result.error.message);
      });
    return () => {
      live = false;
    };
  }, [address]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!address) return;
    const added = await apply(() =>
      labClientFor(address).saveDockerHost({
        id: id.trim(),
        url: url.trim(),
        maxContainers: Number(max),
      }),
    );
    if (added) {
      setId('');
      setUrl('');
    }
  };

  return (
    <section className="panel panel-wide" aria-labelledby={headingId} data-testid="hosts-panel">
      <div className="panel-title-row">
        <h2 id={headingId}>Docker hosts</h2>
        <button type="button" className="button button-small" onClick={refresh} disabled={busy}>
          Check again
        </button>
      </div>
      <p className="muted">
        Rep containers run on the least-loaded host that answers. A host that stops answering gets
        no reps; its reps in flight run again elsewhere. Hosts run only the judge’s tool commands:
        model calls and keys stay on this machine.
      </p>
      {problem && (
        <div className="banner banner-error" role="alert">
          {problem}
        </div>
      )}
      {!hosts && !problem && <p className="muted">Probing hosts…</p>}
      {hosts && (
        <table className="data-table settings-table hosts-table">
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">Address</th>
              <th scope="col">State</th>
              <th scope="col">Docker</th>
              <th scope="col">Max</th>
              <th scope="col">Running</th>
              <th scope="col">Images</th>
              <th scope="col">Base image</th>
              <th scope="col">Reps</th>
              <th scope="col" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {hosts.map((host) => [
              <tr key={host.id} data-testid={`host-${host.id}`}>
                <th scope="row">{host.id}</th>
                <td className="mono">{host.url === 'local' ? 'this machine' : host.url}</td>
                <td>
                  <StateBadge host={host} />
                </td>
                <td>{host.dockerVersion ?? '—'}</td>
                <td>{host.maxContainers}</td>
                <td>{host.containersRunning ?? '—'}</td>
                <td>{host.images ?? '—'}</td>
                <td>
                  {host.baseImagePresent === undefined
                    ? '—'
                    : host.baseImagePresent
                      ? 'present'
                      : 'copied on first rep'}
                </td>
                <td>
                  {host.repsDone}
                  {host.inFlight ? ` (+${host.inFlight} running)` : ''}
                </td>
                <td>
                  {host.id !== 'local' && (
                    <button
                      type="button"
                      className="button button-small"
                      disabled={busy}
                      onClick={() =>
                        address &&
                        void apply(() => labClientFor(address).removeDockerHost({ id: host.id }))
                      }
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>,
              host.problem ? (
                <tr key={`${host.id}-problem`} className="host-problem-row">
                  <td />
                  <td colSpan={9} className="muted" data-testid={`host-${host.id}-problem`}>
                    {host.problem}
                  </td>
                </tr>
              ) : null,
            ])}
          </tbody>
        </table>
      )}
      <form
        className="key-form"
        onSubmit={(event) => void add(event)}
        aria-label="Add a Docker host"
      >
        <label>
          <span>Name</span>
          <input
            value={id}
            onChange={(event) => setId(event.target.value)}
            placeholder="gpu-box"
            spellCheck={false}
            required
          />
        </label>
        <label className="key-value">
          <span>Address</span>
          <input
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="ssh://lab@gpu-box or tcp://gpu-box:2376"
            spellCheck={false}
            required
          />
        </label>
        <label>
          <span>Max containers</span>
          <input
            type="number"
            min={1}
            max={512}
            value={max}
            onChange={(event) => setMax(event.target.value)}
          />
        </label>
        <button type="submit" className="button" disabled={busy || !id || !url}>
          Add host
        </button>
      </form>
      <p className="muted">
        TLS client certificates and ssh key files:{' '}
        <span className="mono">cuelab env hosts add</span> (see{' '}
        <span className="mono">cuelab env --help</span>).
      </p>
    </section>
  );
}
