import { useEffect, type ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionIcon } from '../../components/icons';
import { onLabEvent } from '../../lib/lab-events';
import { loadedValue } from '../../lib/loadable';
import { hashForSection } from '../../sections';
import { useLab } from '../../store';
import { StudiesTable } from './StudiesTable';

/** Runs: the workspace's studies, refreshed whenever the engine says the list changed. */
export function RunsPage() {
  const connected = useLab((state) => state.status === 'connected');
  const studies = useLab((state) => state.studies);
  const loadStudies = useLab((state) => state.loadStudies);

  useEffect(() => {
    if (connected) void loadStudies();
  }, [connected, loadStudies]);
  useEffect(() => onLabEvent('studies.changed', () => void loadStudies()), [loadStudies]);

  const list = loadedValue(studies);
  let body: ReactNode;
  if (list && list.length > 0) {
    body = <StudiesTable studies={list} />;
  } else if (studies.state === 'loaded') {
    body = (
      <EmptyState
        icon={<SectionIcon section="runs" size={28} />}
        title="No studies yet"
        nextSteps={[
          'Design a study in Builder and launch it.',
          'Watch it here; pause it, resume it, or close the window. The engine keeps going.',
        ]}
        action={
          <a className="button" href={hashForSection('builder')}>
            Open Builder
          </a>
        }
      >
        <p>
          Every study in this workspace appears here with its progress, estimated time left and cost
          so far. Sweeps run in the engine, survive a closed window or a crash, and resume without
          repeating a finished call.
        </p>
      </EmptyState>
    );
  } else if (studies.state === 'failed') {
    body = (
      <div className="banner banner-error" role="alert">
        Could not list studies: {studies.error}
      </div>
    );
  } else {
    body = (
      <p className="muted" aria-live="polite">
        {connected ? 'Loading studies…' : 'Waiting for the engine…'}
      </p>
    );
  }

  return (
    <div className="page">
      <PageHeader section="runs" />
      {body}
    </div>
  );
}
