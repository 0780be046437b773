import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionIcon } from '../../components/icons';
import { loadedValue } from '../../lib/loadable';
import { onLabEvent } from '../../lib/lab-events';
import { hashForSection } from '../../sections';
import { labStore, useLab } from '../../store';
import { ComparePanel } from '../compare/ComparePanel';
import { RepsPanel } from './RepsPanel';
import { ResultCharts } from './ResultCharts';
import { watchResultsStudy } from './results-live';
import { showStudyResults, useHashStudyId, wantsAllReps } from './results-route';
import { ArmPicker, StudyPicker, StudyStatusLine } from './ResultsToolbar';
import { TablesProgress } from './TablesProgress';
import './results.css';

function NoStudies() {
  return (
    <EmptyState
      icon={<SectionIcon section="results" size={28} />}
      title="No results to show yet"
      nextSteps={[
        'Run a study, or import per-rep results with cuelab import-results; its figures fill in live as reps land.',
        'Export any figure as PNG or SVG and any table as CSV.',
      ]}
      action={
        <a className="button" href={hashForSection('runs')}>
          Go to Runs
        </a>
      }
    >
      <p>Each study’s analysis, computed in the engine from every recorded verdict:</p>
      <ul className="feature-list">
        <li>Harmful flip rate per judge × dataset (Fig. 2)</li>
        <li>Severity vs leniency: harmful flips by cue direction (Fig. 13)</li>
        <li>Effort curve: flip rate against turns taken, with Pearson r (Fig. 3)</li>
        <li>Cue properties and placement with 95% CIs (Fig. 4, Table 8)</li>
        <li>Accuracy before, under adversarial and untargeted cues (Table 5)</li>
        <li>Mitigations: harmful and helpful flip rates before and after (Table 1)</li>
        <li>Why flips happen: mechanism mix per judge, harmful and helpful (Fig. 5, Fig. 15)</li>
      </ul>
      <p className="note">
        Data from the synthetic judge (an offline simulation) is marked{' '}
        <span className="badge badge-simulated">simulated</span> in every table, chart and export.
      </p>
    </EmptyState>
  );
}

/** Results: the figures and tables of one study, live while it runs. */
export function ResultsPage() {
  const connected = useLab((state) => state.status === 'connected');
  const studies = useLab((state) => state.studies);
  const loadStudies = useLab((state) => state.loadStudies);
  const showResultsStudy = useLab((state) => state.showResultsStudy);
  const openRepsPanel = useLab((state) => state.openRepsPanel);
  const resultsStudyId = useLab((state) => state.resultsStudyId);
  const [comparing, setComparing] = useState(false);
  const stopComparing = useCallback(() => setComparing(false), []);
  const error = useLab((state) => state.resultsError);
  const hashStudyId = useHashStudyId();
  const list = loadedValue(studies);
  const studyId = hashStudyId ?? list?.[0]?.id ?? null;

  useEffect(() => {
    if (connected) void loadStudies();
  }, [connected, loadStudies]);
  useEffect(() => onLabEvent('studies.changed', () => void loadStudies()), [loadStudies]);
  useEffect(() => {
    if (!hashStudyId && studyId) showStudyResults(studyId, true);
  }, [hashStudyId, studyId]);
  useEffect(() => {
    if (!connected || !studyId) return;
    void showResultsStudy(studyId);
    return watchResultsStudy(labStore, studyId);
  }, [connected, studyId, showResultsStudy]);

  // Replay's "All reps…" link: open the panel once the study is shown, then drop the ask from
  // the hash so Back and a reload show the figures.
  useEffect(() => {
    if (!studyId || resultsStudyId !== studyId || !wantsAllReps(window.location.hash)) return;
    openRepsPanel({ title: 'All reps of this study' });
    showStudyResults(studyId, true);
  }, [studyId, resultsStudyId, openRepsPanel]);

  let body: ReactNode;
  if (studyId) {
    body = <ResultCharts key={studyId} studyId={studyId} />;
  } else if (studies.state === 'loaded') {
    body = <NoStudies />;
  } else if (studies.state === 'failed') {
    body = (
      <div className="banner banner-error" role="alert">
        Could not list studies: {studies.error}
      </div>
    );
  } else {
    body = <p className="muted">{connected ? 'Loading studies…' : 'Waiting for the engine…'}</p>;
  }

  const study = list?.find((entry) => entry.id === studyId);
  return (
    <div className="page results-page">
      <PageHeader section="results" />
      {studyId && (
        <div className="results-toolbar">
          <StudyPicker studies={list ?? []} value={studyId} />
          <ArmPicker />
          <StudyStatusLine study={study} />
          <button
            type="button"
            className="button"
            onClick={() => openRepsPanel({ title: 'All reps of this study' })}
          >
            All reps
          </button>
          <button type="button" className="button" onClick={() => setComparing(true)}>
            Compare
          </button>
        </div>
      )}
      {studyId && <TablesProgress studyId={studyId} />}
      {error && (
        <div className="banner banner-error" role="alert">
          Could not read this study’s results: {error}
        </div>
      )}
      {body}
      <RepsPanel />
      {comparing && studyId && (
        <ComparePanel studyId={studyId} studies={list ?? []} onClose={stopComparing} />
      )}
    </div>
  );
}
