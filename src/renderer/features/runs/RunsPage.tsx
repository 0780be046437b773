import { useEffect, type ReactNode } from 'react';
import { commandById, formatShortcut } from '../../commands';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionIcon } from '../../components/icons';
import { onLabEvent } from '../../lib/lab-events';
import { loadedValue } from '../../lib/loadable';
import { hashForSection } from '../../sections';
import { labStore, useLab } from '../../store';
import { startProgressFeed, throttle } from './progress-feed';
import { useSelectedStudyId } from './run-route';
import { StudyCard } from './StudyCard';
import { StudyDetail } from './StudyDetail';
import './runs.css';

const launchShortcut = commandById('builder.launch').shortcut;
const launchKeys = launchShortcut ? formatShortcut(launchShortcut) : 'Launch';
const listKeys = ['runs.next', 'runs.previous', 'runs.togglePause'].map((id) => {
  const shortcut = commandById(id).shortcut;
  return shortcut ? formatShortcut(shortcut) : '';
});

/**
 * Runs: every study with its live progress. The list refreshes when the engine says it
 * changed (at most once a second); progress arrives as `study.progress` events. Everything
 * comes from the engine and the hash, so a reload loses nothing.
 */
export function RunsPage() {
  const connected = useLab((state) => state.status === 'connected');
  const studies = useLab((state) => state.studies);
  const loadStudies = useLab((state) => state.loadStudies);
  const hashStudyId = useSelectedStudyId();

  useEffect(() => {
    if (connected) void loadStudies();
  }, [connected, loadStudies]);
  useEffect(() => {
    const refresh = throttle(() => void loadStudies(), 1000);
    const unsubscribe = onLabEvent('studies.changed', refresh.call);
    return () => {
      unsubscribe();
      refresh.cancel();
    };
  }, [loadStudies]);
  useEffect(() => startProgressFeed(labStore), []);

  const list = loadedValue(studies);
  const selectedId = hashStudyId ?? list?.[0]?.id ?? null;
  let body: ReactNode;
  if (selectedId && (list?.length || hashStudyId)) {
    body = (
      <div className="runs-layout">
        <nav className="study-list" aria-label="Studies">
          {(list ?? []).map((study) => (
            <StudyCard key={study.id} study={study} selected={study.id === selectedId} />
          ))}
          {list && !list.some((study) => study.id === selectedId) && (
            <p className="muted small">Looking for study {selectedId}…</p>
          )}
          <p className="muted small study-list-keys">
            <kbd>{listKeys[0]}</kbd> / <kbd>{listKeys[1]}</kbd> next, previous ·{' '}
            <kbd>{listKeys[2]}</kbd> pause, resume
          </p>
        </nav>
        <StudyDetail
          key={selectedId}
          studyId={selectedId}
          summary={list?.find((study) => study.id === selectedId)}
        />
      </div>
    );
  } else if (studies.state === 'loaded') {
    body = (
      <EmptyState
        icon={<SectionIcon section="runs" size={28} />}
        title="No studies yet"
        nextSteps={[
          `Design a study in Builder and launch it (${launchKeys}), or run a spec file with cuelab run.`,
          'Watch it here; pause it, resume it, or close the window. The engine keeps going.',
        ]}
        action={
          <a className="button" href={hashForSection('builder')}>
            Open Builder
          </a>
        }
      >
        <p>
          Every study in this workspace appears here with its progress per condition, estimated time
          left and cost so far. Sweeps run in the engine, survive a closed window or a crash, and
          resume without repeating a finished call.
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
    <div className="page runs-page">
      <PageHeader section="runs" />
      {body}
    </div>
  );
}
