import { useEffect } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useLab } from '../../store';
import { AppearancePanel } from './AppearancePanel';
import { ConnectionCheckPanel } from './ConnectionCheckPanel';
import { DockerHostsPanel } from './DockerHostsPanel';
import { EnvironmentPanel } from './EnvironmentPanel';
import { ImportFoldersPanel } from './ImportFoldersPanel';
import { ConcurrencyPanel, ProvidersPanel } from './ProvidersPanel';
import { WorkspacePanel } from './WorkspacePanel';
import './settings.css';

/** Settings: providers and keys, the connection check, workspace, import folders, Docker and base image, Docker hosts, concurrency, appearance. */
export function SettingsPage() {
  const connected = useLab((state) => state.status === 'connected');
  const address = useLab((state) => state.address);
  const loadWorkspace = useLab((state) => state.loadWorkspace);
  const loadEnvironment = useLab((state) => state.loadEnvironment);
  const loadSecrets = useLab((state) => state.loadSecrets);
  useEffect(() => {
    if (!connected) return;
    void loadWorkspace();
    void loadEnvironment();
    void loadSecrets();
  }, [connected, address, loadWorkspace, loadEnvironment, loadSecrets]);

  return (
    <div className="page settings-page">
      <PageHeader section="settings" />
      <div className="panel-grid">
        <ProvidersPanel />
        <ConnectionCheckPanel />
        <EnvironmentPanel />
        <DockerHostsPanel />
        <WorkspacePanel />
        <ImportFoldersPanel />
        <ConcurrencyPanel />
        <AppearancePanel />
      </div>
    </div>
  );
}
