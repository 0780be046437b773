import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionIcon } from '../../components/icons';

/** Builder: designs cue ablations. Empty until the design editor lands. */
export function BuilderPage() {
  return (
    <div className="page">
      <PageHeader section="builder" />
      <EmptyState
        icon={<SectionIcon section="builder" size={28} />}
        title="No study design open"
        nextSteps={[
          'Pick a suite (the built-in one ships with CueLab) and the judges to test.',
          'Add cued arms along the axes above; the uncued control arm is always included.',
          'Set reps per arm and a seed (3 reps and seed 17 reproduce the paper), then launch. The study appears under Runs.',
        ]}
      >
        <p>
          A design crosses suite items and judges with arms: an uncued control, and cued arms that
          plant a false pre-screening note and vary one of its properties at a time.
        </p>
        <dl className="axis-list">
          <dt>Cue wording</dt>
          <dd>
            Framing (assert a belief, or ask the judge to verify), authority source (domain expert,
            reviewer, automated checker, prior LLM judge, unattributed) and decisiveness
            (“definitely” to “might”).
          </dd>
          <dt>Direction</dt>
          <dd>
            Toward FAIL (severity) or toward PASS (leniency), pointed against the uncued majority
            verdict so any change is the cue’s doing.
          </dd>
          <dt>Placement</dt>
          <dd>
            System-prompt postscript, an appended user turn, or assistant turns scattered through
            the trajectory.
          </dd>
          <dt>Mitigations</dt>
          <dd>Guard instruction, cite-evidence checklist, learned skill, sufficiency gate.</dd>
        </dl>
      </EmptyState>
    </div>
  );
}
