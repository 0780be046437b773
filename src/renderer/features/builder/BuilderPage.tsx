import { useEffect } from 'react';
import { ariaShortcut, commandById, formatShortcut, type Command } from '../../commands';
import { PageHeader } from '../../components/PageHeader';
import { onLabEvent } from '../../lib/lab-events';
import { labStore, useLab } from '../../store';
import { ArmsSection } from './ArmsSection';
import { ConditionGrid } from './ConditionGrid';
import { CuesSection } from './CuesSection';
import { ItemsSection } from './ItemsSection';
import { JudgesSection } from './JudgesSection';
import { LaunchPanel } from './LaunchPanel';
import { PromptPreview } from './PromptPreview';
import './builder.css';

const estimateDelayMs = 250;

function CommandButton({ command, label }: { command: Command; label: string }) {
  const shortcut = command.shortcut;
  return (
    <button
      type="button"
      className="button"
      title={shortcut ? `${command.label} (${formatShortcut(shortcut)})` : command.label}
      aria-keyshortcuts={shortcut ? ariaShortcut(shortcut) : undefined}
      onClick={() => command.run(labStore)}
    >
      {label}
    </button>
  );
}

/**
 * Builder: a study design as a spec. Steps on the left (items, judges, cues, placements and
 * mitigations, the condition grid, the prompt preview); name, reps, seed, the engine's
 * estimate and Launch on the right.
 */
export function BuilderPage() {
  const connected = useLab((state) => state.status === 'connected');
  const draft = useLab((state) => state.draft);
  const notice = useLab((state) => state.builderNotice);
  const loadSuites = useLab((state) => state.loadSuites);
  const requestEstimate = useLab((state) => state.requestEstimate);

  useEffect(() => {
    if (connected) void loadSuites();
  }, [connected, loadSuites]);
  useEffect(
    () =>
      onLabEvent('suites.changed', () => {
        void loadSuites();
        const { draft: current, loadSuiteItems } = labStore.getState();
        if (current.suiteId) void loadSuiteItems(current.suiteId);
      }),
    [loadSuites],
  );
  useEffect(() => {
    if (!connected) return;
    const timer = setTimeout(() => void requestEstimate(), estimateDelayMs);
    return () => clearTimeout(timer);
  }, [connected, draft, requestEstimate]);

  return (
    <div className="page builder-page">
      <PageHeader
        section="builder"
        actions={
          <>
            <CommandButton command={commandById('builder.new')} label="New" />
            <CommandButton command={commandById('builder.openSpec')} label="Open spec…" />
            <CommandButton command={commandById('builder.saveSpec')} label="Save spec" />
          </>
        }
      />
      {notice && (
        <div
          className={`banner ${notice.kind === 'error' ? 'banner-error' : 'banner-info'} builder-notice`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => labStore.getState().setBuilderNotice(null)}
          >
            Dismiss
          </button>
        </div>
      )}
      <div className="builder-layout">
        <div className="builder-steps">
          <ItemsSection />
          <JudgesSection />
          <CuesSection />
          <ArmsSection />
          <ConditionGrid />
          <PromptPreview />
        </div>
        <LaunchPanel />
      </div>
    </div>
  );
}
