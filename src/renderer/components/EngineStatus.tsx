import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatDateTime } from '../lib/format';
import { useLab } from '../store';
import type { ConnectionStatus } from '../store/connection-slice';

const statusLabels: Record<ConnectionStatus, string> = {
  connected: 'Engine connected',
  connecting: 'Connecting to engine…',
  disconnected: 'Engine disconnected',
};

/**
 * The engine connection indicator in the top bar. Hover or focus shows the engine's version,
 * workspace and address (never the token) and the last problem, if any.
 */
export function EngineStatus() {
  const tooltipId = useId();
  const { status, health, address, restarts, lastError } = useLab(
    useShallow((state) => ({
      status: state.status,
      health: state.health,
      address: state.address,
      restarts: state.restarts,
      lastError: state.lastError,
    })),
  );
  return (
    <div
      className="engine-status"
      data-testid="engine-status"
      data-state={status}
      role="status"
      tabIndex={0}
      aria-describedby={tooltipId}
    >
      <span className="status-dot" aria-hidden="true" />
      <span className="status-label">{statusLabels[status]}</span>
      {restarts > 0 && <span className="status-restarts">engine restarted ({restarts})</span>}
      <div className="tooltip" role="tooltip" id={tooltipId}>
        <dl className="facts">
          <dt>Engine</dt>
          <dd>{health ? `CueLab ${health.version}` : 'not reached yet'}</dd>
          <dt>Workspace</dt>
          <dd className="mono">{health?.workspace ?? '—'}</dd>
          <dt>Address</dt>
          <dd className="mono">{address?.baseUrl ?? '—'}</dd>
          {health && (
            <>
              <dt>Started</dt>
              <dd>{formatDateTime(health.startedAt)}</dd>
            </>
          )}
          {lastError && status !== 'connected' && (
            <>
              <dt>Problem</dt>
              <dd>{lastError}</dd>
            </>
          )}
        </dl>
      </div>
    </div>
  );
}
