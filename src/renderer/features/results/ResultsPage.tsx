import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { SectionIcon } from '../../components/icons';
import { hashForSection } from '../../sections';

/** Results: figures and tables of a finished (or running) study. */
export function ResultsPage() {
  return (
    <div className="page">
      <PageHeader section="results" />
      <EmptyState
        icon={<SectionIcon section="results" size={28} />}
        title="No results to show yet"
        nextSteps={[
          'Run a study; its figures fill in live as runs land.',
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
          <li>Flip-rate heatmap across cue axes and levels, with bootstrap CIs</li>
          <li>Severity vs leniency: harmful flips by cue direction</li>
          <li>Effort curve: tool calls and inspection against flip rate</li>
          <li>Accuracy before, under adversarial and untargeted cues</li>
          <li>Mitigation table: harmful and helpful flip rates before and after</li>
        </ul>
        <p className="note">
          Data from the synthetic judge (an offline simulation) is marked{' '}
          <span className="badge badge-simulated">simulated</span> in every table, chart and export.
        </p>
      </EmptyState>
    </div>
  );
}
