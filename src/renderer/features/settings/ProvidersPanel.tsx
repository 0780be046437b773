import { useId, useState, type FormEvent } from 'react';
import { providerCatalogue } from '../../../shared/catalogue/providers';
import { keyVariableShape } from '../../../shared/secrets';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';
import type { SecretEntry } from './environment-slice';

/** The key variables the providers read by default, offered first in the key form. */
const providerKeyNames = providerCatalogue.flatMap((entry) =>
  entry.keyVariable ? [entry.keyVariable] : [],
);

const otherName = '__other__';

function KeyStatus({ entry }: { entry: SecretEntry | undefined }) {
  if (!entry) return <span className="muted">not set</span>;
  return (
    <span data-testid={`secret-${entry.name}`}>
      <span className={entry.source === 'environment' ? 'badge badge-ok' : 'badge'}>
        {entry.source === 'environment' ? 'from the environment' : 'set for this session'}
      </span>{' '}
      <span className="mono">{entry.hint}</span>
    </span>
  );
}

/** Providers and keys: which judges' keys the engine has, and a form to hand it one. */
export function ProvidersPanel() {
  const headingId = useId();
  const secrets = useLab((state) => state.secrets);
  const saveSecret = useLab((state) => state.saveSecret);
  const [choice, setChoice] = useState<string>(providerKeyNames[0] ?? otherName);
  const [customName, setCustomName] = useState('');
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const list = loadedValue(secrets) ?? [];
  const known = new Set<string>(providerKeyNames);
  const others = list.filter((entry) => !known.has(entry.name));
  const name = choice === otherName ? customName.trim() : choice;
  const inElectron = window.cuelab !== undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!keyVariableShape.test(name)) {
      setMessage({
        text: 'A key name is upper-case letters, digits and _ (e.g. VLLM_API_KEY).',
        error: true,
      });
      return;
    }
    const problem = await saveSecret(name, value);
    setValue('');
    setMessage(
      problem
        ? { text: problem, error: true }
        : { text: `${name} handed to the engine.`, error: false },
    );
  };

  return (
    <section className="panel panel-wide" aria-labelledby={headingId} data-testid="providers-panel">
      <h2 id={headingId}>Providers and keys</h2>
      <table className="data-table settings-table">
        <thead>
          <tr>
            <th scope="col">Provider</th>
            <th scope="col">Key</th>
            <th scope="col">Status</th>
            <th scope="col">Used by</th>
          </tr>
        </thead>
        <tbody>
          {providerCatalogue.map((provider) => (
            <tr key={provider.kind}>
              <th scope="row">{provider.label}</th>
              <td className="mono">{provider.keyVariable ?? '—'}</td>
              <td>
                {provider.keyVariable ? (
                  <KeyStatus entry={list.find((entry) => entry.name === provider.keyVariable)} />
                ) : (
                  <span className="muted">
                    {provider.simulated ? 'no key needed' : 'per judge'}
                  </span>
                )}
              </td>
              <td className="muted">{provider.usedBy}</td>
            </tr>
          ))}
          {others.map((entry) => (
            <tr key={entry.name}>
              <th scope="row">Other</th>
              <td className="mono">{entry.name}</td>
              <td>
                <KeyStatus entry={entry} />
              </td>
              <td className="muted">judges whose apiKeyEnv is {entry.name}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {secrets.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not list keys: {secrets.error}
        </div>
      )}
      <form className="key-form" onSubmit={(event) => void submit(event)}>
        <label>
          <span>Key</span>
          <select
            value={choice}
            onChange={(event) => setChoice(event.target.value)}
            data-testid="secret-name"
          >
            {providerKeyNames.map((keyName) => (
              <option key={keyName} value={keyName}>
                {keyName}
              </option>
            ))}
            <option value={otherName}>Other…</option>
          </select>
        </label>
        {choice === otherName && (
          <label>
            <span>Name</span>
            <input
              value={customName}
              onChange={(event) => setCustomName(event.target.value.toUpperCase())}
              placeholder="VLLM_API_KEY"
              spellCheck={false}
            />
          </label>
        )}
        <label className="key-value">
          <span>Value</span>
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder="paste the key"
            data-testid="secret-value"
          />
        </label>
        <button type="submit" className="button" disabled={value === ''} data-testid="secret-save">
          Save key
        </button>
        {list.some((entry) => entry.name === name && entry.source === 'session') && (
          <button
            type="button"
            className="button"
            onClick={() =>
              void saveSecret(name, '').then(() =>
                setMessage({ text: `${name} forgotten.`, error: false }),
              )
            }
          >
            Forget
          </button>
        )}
      </form>
      {message && (
        <p className={message.error ? 'form-message form-error' : 'form-message'} role="status">
          {message.text}
        </p>
      )}
      <p className="muted">
        {inElectron
          ? 'In the desktop app keys are kept with Electron safeStorage (encrypted by the system keychain) and handed to the engine when it starts.'
          : 'This browser hands the key to the engine for as long as the engine runs; nothing is written to disk.'}{' '}
        Keys from the engine’s environment are used as they are. The window only ever sees a key’s
        last four characters; keys never reach logs, exports or the database.
      </p>
    </section>
  );
}

/** Default concurrency: what a new study uses; there is no engine-wide setting yet. */
export function ConcurrencyPanel() {
  const headingId = useId();
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Concurrency</h2>
      <dl className="facts">
        <dt>Reps in flight</dt>
        <dd className="numeric">4 per study</dd>
        <dt>Containers alive</dt>
        <dd className="numeric">4 per study</dd>
        <dt>Per judge</dt>
        <dd>no cap unless the judge sets one (rate limits)</dd>
      </dl>
      <p className="muted">
        These are the study spec’s defaults; set them per study in Builder. The engine has no
        workspace-wide concurrency setting yet, so they are shown here, not edited.
      </p>
    </section>
  );
}
