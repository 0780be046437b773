import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionIcon } from '../../components/icons';

/** Replay: a cued run beside its uncued twin, entirely from the workspace database. */
export function ReplayPage() {
  return (
    <div className="page">
      <PageHeader section="replay" />
      <EmptyState
        icon={<SectionIcon section="replay" size={28} />}
        title="No run open"
        nextSteps={[
          'Open a flipped run from Results or Runs.',
          'Step through both transcripts together; the first divergence is marked.',
        ]}
      >
        <p>
          A cued run opens beside its uncued twin (same item, judge and rep), with every message and
          tool call aligned step by step and the point where the two judges diverge marked. Replay
          works offline from the workspace: nothing is sent to a model again.
        </p>
      </EmptyState>
    </div>
  );
}
