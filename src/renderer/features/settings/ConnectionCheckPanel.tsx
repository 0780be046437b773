import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  modelProviderKindSchema,
  providerCatalogue,
  takesOption,
  type ModelProviderKind,
} from '../../../shared/catalogue/providers';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';
import type { ProviderCheck, ProviderCheckRequest } from './environment-slice';

/** The providers a check can reach (the synthetic judge has no endpoint). */
const checkable = providerCatalogue.flatMap((entry) => {
  const kind = modelProviderKindSchema.safeParse(entry.kind);
  return kind.success ? [{ ...entry, kind: kind.data }] : [];
});

const dialects = ['auto', 'structured', 'hermes', 'json'] as const;

function usd(value: number): string {
  return `$${Number(value.toFixed(4))}`;
}

function priceText(check: ProviderCheck): string {
  if (!check.price) return 'no price row';
  const { input, output, cacheRead, cacheWrite } = check.price;
  return (
    `${usd(input)} in, ${usd(output)} out` +
    (cacheRead === null ? '' : `, cache read ${usd(cacheRead)}`) +
    (cacheWrite === null ? '' : `, write ${usd(cacheWrite)}`)
  );
}

function requestOf(check: ProviderCheck): ProviderCheckRequest | null {
  const entry = checkable.find((provider) => provider.kind === check.provider);
  if (!entry) return null;
  return {
    provider: entry.kind,
    model: check.model,
    ...(check.baseUrl ? { baseUrl: check.baseUrl } : {}),
  };
}

/** One stored check: what came back, and a button to run it again. */
function CheckRow({
  check,
  busy,
  onCheck,
}: {
  check: ProviderCheck;
  busy: boolean;
  onCheck: (request: ProviderCheckRequest) => void;
}) {
  const request = requestOf(check);
  return (
    <tr data-testid="provider-check" data-ok={check.ok}>
      <th scope="row">
        <span className="mono">{check.model}</span>
        <span className="muted small check-endpoint">
          {check.provider}
          {check.baseUrl ? ` at ${check.baseUrl}` : ''}
        </span>
      </th>
      <td>
        <span className={check.ok ? 'badge badge-ok' : 'badge badge-error'}>
          {check.ok ? 'passed' : 'failed'}
        </span>
        {check.problem && <span className="check-problem small">{check.problem}</span>}
      </td>
      <td>{check.toolCalls ? `yes (${check.dialect ?? 'structured'})` : 'no'}</td>
      <td>{check.reasoning ? 'yes' : 'no'}</td>
      <td>{check.caching ?? 'not known'}</td>
      <td className="numeric">{check.latencyMs === null ? '—' : `${check.latencyMs} ms`}</td>
      <td className="small check-price">{priceText(check)} per Mtok</td>
      <td>
        <button
          type="button"
          className="button"
          disabled={busy || request === null}
          onClick={() => request && onCheck(request)}
          title={`Checked ${new Date(check.checkedAt).toLocaleString()}`}
        >
          Check again
        </button>
      </td>
    </tr>
  );
}

/**
 * Settings → Connection check: the same check as `cuelab providers check`, per endpoint. A
 * study will not launch against an endpoint whose last check failed.
 */
export function ConnectionCheckPanel() {
  const headingId = useId();
  const checks = useLab((state) => state.providerChecks);
  const loadProviderChecks = useLab((state) => state.loadProviderChecks);
  const runProviderCheck = useLab((state) => state.runProviderCheck);
  const connected = useLab((state) => state.status === 'connected');
  const [provider, setProvider] = useState<ModelProviderKind>(checkable[0]?.kind ?? 'anthropic');
  const entry = checkable.find((option) => option.kind === provider);
  const [model, setModel] = useState(entry?.defaultModel ?? '');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKeyEnv, setApiKeyEnv] = useState('');
  const [dialect, setDialect] = useState<(typeof dialects)[number]>('auto');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (connected) void loadProviderChecks();
  }, [connected, loadProviderChecks]);

  const check = async (request: ProviderCheckRequest) => {
    setBusy(true);
    setProblem(null);
    setProblem(await runProviderCheck(request));
    setBusy(false);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void check({
      provider,
      model: model.trim(),
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      ...(apiKeyEnv.trim() ? { apiKeyEnv: apiKeyEnv.trim() } : {}),
      ...(takesOption(provider, 'dialect') ? { dialect } : {}),
    });
  };
  const list = loadedValue(checks) ?? [];

  return (
    <section
      className="panel panel-wide"
      aria-labelledby={headingId}
      data-testid="connection-check-panel"
    >
      <h2 id={headingId}>Connection check</h2>
      <p className="muted">
        Sends one tiny tool-using request (twice, to see the prompt cache) and shows whether the
        model called the tool and in which dialect, whether reasoning came back, whether caching is
        on, the latency and the price CueLab will charge. A study will not launch against an
        endpoint whose last check failed. Naming a base URL here sends the key there for this check.
      </p>
      <form className="key-form check-form" onSubmit={submit}>
        <label>
          <span>Provider</span>
          <select
            value={provider}
            data-testid="check-provider"
            onChange={(event) => {
              const chosen = checkable.find((option) => option.kind === event.target.value);
              if (!chosen) return;
              setProvider(chosen.kind);
              setModel(chosen.defaultModel);
            }}
          >
            {checkable.map((option) => (
              <option key={option.kind} value={option.kind}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Model</span>
          <input
            className="mono"
            value={model}
            spellCheck={false}
            data-testid="check-model"
            onChange={(event) => setModel(event.target.value)}
          />
        </label>
        <label>
          <span>Base URL</span>
          <input
            className="mono"
            value={baseUrl}
            spellCheck={false}
            placeholder={entry?.baseUrlExample ?? 'the provider’s own API'}
            data-testid="check-base-url"
            onChange={(event) => setBaseUrl(event.target.value)}
          />
        </label>
        <label>
          <span>Key variable</span>
          <input
            className="mono"
            value={apiKeyEnv}
            spellCheck={false}
            placeholder={entry?.keyVariable ?? 'none'}
            onChange={(event) => setApiKeyEnv(event.target.value.toUpperCase())}
          />
        </label>
        {takesOption(provider, 'dialect') && (
          <label>
            <span>Dialect</span>
            <select
              value={dialect}
              onChange={(event) =>
                setDialect(dialects.find((value) => value === event.target.value) ?? 'auto')
              }
            >
              {dialects.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </label>
        )}
        <button
          type="submit"
          className="button button-primary"
          disabled={busy || model.trim() === ''}
          data-testid="check-run"
        >
          {busy ? 'Checking…' : 'Check connection'}
        </button>
      </form>
      {problem && (
        <p className="form-message form-error" role="alert" data-testid="check-error">
          {problem}
        </p>
      )}
      {list.length > 0 ? (
        <div className="check-table-scroll">
          <table className="data-table check-table">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Result</th>
                <th scope="col">Tool calls</th>
                <th scope="col">Reasoning</th>
                <th scope="col">Caching</th>
                <th scope="col">Latency</th>
                <th scope="col">Price</th>
                <th scope="col" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {list.map((stored) => (
                <CheckRow
                  key={`${stored.provider}|${stored.baseUrl ?? ''}|${stored.model}`}
                  check={stored}
                  busy={busy}
                  onCheck={(request) => void check(request)}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No endpoint has been checked in this workspace yet.</p>
      )}
    </section>
  );
}
