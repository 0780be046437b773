import { useEffect, useState, type ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionIcon } from '../../components/icons';
import { onLabEvent } from '../../lib/lab-events';
import { loadedValue } from '../../lib/loadable';
import { hashForSection } from '../../sections';
import { useLab } from '../../store';
import { allRepsHash } from '../results/results-route';
import { BundleControls } from './BundleControls';
import { FlipList, StudySelect } from './FlipList';
import { FlipListControls } from './FlipListControls';
import { defaultFlipListView, visibleFlips } from './flip-list-view';
import { PairView } from './PairView';
import type { FlipSummary } from './replay-slice';
import { annotateHash, goToHash, replayHash, useHashSegment } from './replay-route';
import './replay.css';

function NoStudies() {
  return (
    <EmptyState
      icon={<SectionIcon section="replay" size={28} />}
      title="No study to replay yet"
      nextSteps={[
        'Run a study; its flipped reps are listed here.',
        'Open one to see it beside its uncued twin, with the divergence marked.',
        'Or open a study bundle exported on another machine (Open bundle… above).',
      ]}
      action={
        <a className="button" href={hashForSection('runs')}>
          Go to Runs
        </a>
      }
    >
      <p>
        A cued run opens beside its uncued twin (same item, judge and rep), tool calls aligned and
        the point where the two judges diverge marked. Replay works offline from the workspace:
        nothing is sent to a model again.
      </p>
    </EmptyState>
  );
}

function OpenPair({ repId }: { repId: string }) {
  const pair = useLab((state) => state.replayPair);
  if (pair.state === 'failed') {
    return (
      <div className="banner banner-error" role="alert">
        Could not open rep {repId}: {pair.error}
      </div>
    );
  }
  if (pair.state !== 'loaded') return <p className="muted">Opening the pair…</p>;
  return <PairView pair={pair.value} showDiff />;
}

/** The flips of one study under the list's filter, search and sort (reset per study). */
function FlipListSection({
  studyId,
  flips,
  openRepId,
}: {
  studyId: string;
  flips: FlipSummary[];
  openRepId: string | null;
}) {
  const [view, setView] = useState(defaultFlipListView);
  const shown = visibleFlips(flips, view);
  return (
    <>
      <FlipListControls flips={flips} view={view} shownCount={shown.length} onChange={setView} />
      <div className="flip-list-scroll">
        {shown.length > 0 ? (
          <FlipList
            flips={shown}
            openRepId={openRepId}
            onOpen={(id) => goToHash(replayHash(studyId, id))}
          />
        ) : (
          <p className="muted replay-none">No flipped rep matches the filter and search.</p>
        )}
      </div>
    </>
  );
}

/** Replay: a study's flipped reps, and one of them beside its uncued twin. */
export function ReplayPage() {
  const connected = useLab((state) => state.status === 'connected');
  const studies = useLab((state) => state.studies);
  const loadStudies = useLab((state) => state.loadStudies);
  const flips = useLab((state) => state.replayFlips);
  const classify = useLab((state) => state.replayClassify);
  const showReplayStudy = useLab((state) => state.showReplayStudy);
  const openReplayPair = useLab((state) => state.openReplayPair);
  const classifyReplayFlips = useLab((state) => state.classifyReplayFlips);
  const hashStudyId = useHashSegment('replay', 0);
  const repId = useHashSegment('replay', 1);
  const list = loadedValue(studies);
  const studyId = hashStudyId ?? list?.[0]?.id ?? null;

  useEffect(() => {
    if (connected) void loadStudies();
  }, [connected, loadStudies]);
  useEffect(() => onLabEvent('studies.changed', () => void loadStudies()), [loadStudies]);
  useEffect(() => {
    if (!hashStudyId && studyId) goToHash(replayHash(studyId), true);
  }, [hashStudyId, studyId]);
  useEffect(() => {
    if (connected) void showReplayStudy(studyId);
  }, [connected, studyId, showReplayStudy]);
  useEffect(() => {
    if (connected) void openReplayPair(repId);
  }, [connected, repId, openReplayPair]);

  const flipList = loadedValue(flips) ?? [];
  const unlabelled =
    flipList.length > 0 &&
    flipList.every((flip) => Object.keys(flip.classifierLabels).length === 0);
  let body: ReactNode;
  if (!studyId) {
    body = studies.state === 'loaded' ? <NoStudies /> : <p className="muted">Loading studies…</p>;
  } else if (flips.state === 'failed' && flipList.length === 0) {
    body = (
      <div className="banner banner-error" role="alert">
        Could not list the flips: {flips.error}
      </div>
    );
  } else if (flips.state === 'loaded' && flipList.length === 0) {
    body = (
      <p className="muted replay-none">
        No flipped reps in this study: every cued rep kept its uncued majority verdict.
      </p>
    );
  } else {
    body = (
      <>
        <FlipListSection key={studyId} studyId={studyId} flips={flipList} openRepId={repId} />
        {repId ? (
          <OpenPair repId={repId} />
        ) : (
          <p className="muted replay-none">Open a flipped rep to see it beside its uncued twin.</p>
        )}
      </>
    );
  }

  return (
    <div className="page replay-page">
      <PageHeader section="replay" />
      {list && (
        // One toolbar whether or not a study exists, so the bundle controls (and what they
        // last said) stay mounted when opening a bundle selects its study.
        <div className="replay-toolbar">
          {studyId && (
            <StudySelect
              studies={list}
              value={studyId}
              testId="replay-study"
              onChange={(id) => goToHash(replayHash(id))}
            />
          )}
          <BundleControls studyId={studyId} />
          {studyId && (
            <>
              <span className="muted">
                {flips.state === 'loaded' || flipList.length > 0
                  ? `${flipList.length} flipped rep${flipList.length === 1 ? '' : 's'}`
                  : 'Listing flips…'}
              </span>
              {unlabelled && (
                <button
                  type="button"
                  className="button"
                  data-testid="classify-flips"
                  disabled={classify.running}
                  onClick={() => void classifyReplayFlips()}
                >
                  {classify.running ? 'Classifying…' : 'Classify flips'}
                </button>
              )}
              <a className="button" href={annotateHash(studyId)}>
                Label these flips
              </a>
              <a className="button" href={allRepsHash(studyId)}>
                All reps…
              </a>
            </>
          )}
          {classify.error && (
            <span className="banner banner-error" role="alert">
              {classify.error}
            </span>
          )}
        </div>
      )}
      {body}
    </div>
  );
}
