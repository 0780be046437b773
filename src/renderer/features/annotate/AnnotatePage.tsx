import { useEffect, type ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionIcon } from '../../components/icons';
import { onLabEvent } from '../../lib/lab-events';
import { loadedValue } from '../../lib/loadable';
import { hashForSection } from '../../sections';
import { useLab } from '../../store';
import { StudySelect } from '../replay/FlipList';
import { PairView } from '../replay/PairView';
import { annotateHash, goToHash, replayHash, useHashSegment } from '../replay/replay-route';
import { AgreementPanel } from './AgreementPanel';
import { AnnotatorPicker } from './AnnotatorPicker';
import { LabelPanel } from './LabelPanel';
import './annotate.css';

function NoStudies() {
  return (
    <EmptyState
      icon={<SectionIcon section="annotate" size={28} />}
      title="No study to label yet"
      nextSteps={['Run a study with cued arms.', 'Label its flipped reps here, blind.']}
      action={
        <a className="button" href={hashForSection('runs')}>
          Go to Runs
        </a>
      }
    >
      <p>
        Each flipped rep gets a mechanism label from several named annotators; agreement (Cohen’s
        and Fleiss’ κ, classifiers against the 2-of-3 gold) updates as labels are saved.
      </p>
    </EmptyState>
  );
}

/** The item on screen: what to pick, then the pair (blind: no diff reading, no labels). */
function CurrentItem() {
  const queue = useLab((state) => state.annotateQueue);
  const pair = useLab((state) => state.annotatePair);
  const annotator = useLab((state) => state.annotator);
  const value = loadedValue(queue);
  if (queue.state === 'failed' && !value) {
    return (
      <div className="banner banner-error" role="alert">
        Could not load the queue: {queue.error}
      </div>
    );
  }
  if (!value) return <p className="muted">Loading the queue…</p>;
  if (value.total === 0) return <p className="muted">This study has no flipped reps to label.</p>;
  if (value.entries.length === 0) {
    return (
      <p className="annotate-done" data-testid="annotate-done">
        All {value.total} flips labelled by {annotator}. Agreement is below.
      </p>
    );
  }
  if (pair.state === 'failed') {
    return (
      <div className="banner banner-error" role="alert">
        Could not open the next flip: {pair.error}
      </div>
    );
  }
  if (pair.state !== 'loaded') return <p className="muted">Opening the next flip…</p>;
  return (
    <>
      <LabelPanel kind={pair.value.flip.kind} />
      <PairView pair={pair.value} showDiff={false} />
    </>
  );
}

/** Annotate: a blind labelling queue per named annotator, with agreement beside it. */
export function AnnotatePage() {
  const connected = useLab((state) => state.status === 'connected');
  const studies = useLab((state) => state.studies);
  const loadStudies = useLab((state) => state.loadStudies);
  const annotator = useLab((state) => state.annotator);
  const queue = useLab((state) => state.annotateQueue);
  const showAnnotateStudy = useLab((state) => state.showAnnotateStudy);
  const setAnnotator = useLab((state) => state.setAnnotator);
  const hashStudyId = useHashSegment('annotate', 0);
  const list = loadedValue(studies);
  const studyId = hashStudyId ?? list?.[0]?.id ?? null;
  const progress = loadedValue(queue);

  useEffect(() => {
    if (connected) void loadStudies();
  }, [connected, loadStudies]);
  useEffect(() => onLabEvent('studies.changed', () => void loadStudies()), [loadStudies]);
  useEffect(() => {
    if (!hashStudyId && studyId) goToHash(annotateHash(studyId), true);
  }, [hashStudyId, studyId]);
  useEffect(() => {
    if (connected) void showAnnotateStudy(studyId);
  }, [connected, studyId, showAnnotateStudy]);

  let body: ReactNode;
  if (!studyId) {
    body = studies.state === 'loaded' ? <NoStudies /> : <p className="muted">Loading studies…</p>;
  } else if (!annotator) {
    body = <AnnotatorPicker onChoose={(name) => void setAnnotator(name)} />;
  } else {
    body = <CurrentItem />;
  }

  return (
    <div className="page annotate-page">
      <PageHeader section="annotate" />
      {list && studyId && (
        <div className="replay-toolbar">
          <StudySelect
            studies={list}
            value={studyId}
            testId="annotate-study"
            onChange={(id) => goToHash(annotateHash(id))}
          />
          {annotator && (
            <>
              <span>
                Labelling as <strong data-testid="annotator-current">{annotator}</strong>
              </span>
              <button
                type="button"
                className="button button-small"
                onClick={() => void setAnnotator(null)}
              >
                Change annotator
              </button>
              {progress && (
                <span className="annotate-progress" data-testid="annotate-progress">
                  {progress.done}/{progress.total} labelled
                </span>
              )}
            </>
          )}
          <a className="button button-small" href={replayHash(studyId)}>
            Open in Replay
          </a>
        </div>
      )}
      {body}
      {studyId && <AgreementPanel />}
    </div>
  );
}
