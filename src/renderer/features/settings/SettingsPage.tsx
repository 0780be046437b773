import { useEffect, useId } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useLab } from '../../store';
import { AppearancePanel } from './AppearancePanel';
import { DockerPanel, WorkspacePanel } from './WorkspacePanel';

function ProvidersPanel() {
  const headingId = useId();
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Providers and keys</h2>
      <p>
        No providers configured yet. Anthropic, OpenAI and any OpenAI-compatible endpoint (vLLM,
        Ollama, LM Studio, llama.cpp) are set up here; the synthetic judge needs no key and its
        results are always marked simulated.
      </p>
      <p className="muted">
        The desktop app keeps keys in the system keychain; a browser or headless session uses the
        engine’s environment variables. Keys never reach logs, exports or the database.
      </p>
    </section>
  );
}

/** Settings: providers, workspace, Docker and appearance. */
export function SettingsPage() {
  const connected = useLab((state) => state.status === 'connected');
  const loadWorkspace = useLab((state) => state.loadWorkspace);
  useEffect(() => {
    if (connected) void loadWorkspace();
  }, [connected, loadWorkspace]);

  return (
    <div className="page">
      <PageHeader section="settings" />
      <div className="panel-grid">
        <WorkspacePanel />
        <DockerPanel />
        <ProvidersPanel />
        <AppearancePanel />
      </div>
    </div>
  );
}
