/**
 * What the engine's files worker says of the export, bundle or import the window waits on
 * (`files.progress` events), as a few words for the screen's busy line, and the id that
 * cancels it (`cancelFileWork`).
 */
import { useLayoutEffect, useState } from 'react';
import type { LabEventData } from '../../shared/lab-api';
import { onLabEvent } from './lab-events';

type FileProgress = LabEventData<'files.progress'>;

/** The work a busy line shows: what it says, and the id that cancels it. */
export interface FileWorkHeard {
  readonly text: string;
  readonly workId: string;
}

/** "compressing (67%)": the step under way and how much is behind it. */
export function fileProgressText(progress: FileProgress): string {
  const step = progress.step ?? 'working';
  if (progress.total <= 0) return step;
  return `${step} (${Math.floor((progress.done * 100) / progress.total)}%)`;
}

/**
 * The latest progress of `methods` while `active` (the screen shows its spinner), else null.
 * Pass a constant list: it is compared by identity.
 */
export function useFileProgress(
  methods: readonly FileProgress['method'][],
  active: boolean,
): FileWorkHeard | null {
  const [heard, setHeard] = useState<FileWorkHeard | null>(null);
  // A layout effect listens from the render that shows the spinner, before the engine can
  // answer: a short job's progress would otherwise pass before a passive effect subscribed.
  useLayoutEffect(() => {
    if (!active) return undefined;
    const stop = onLabEvent('files.progress', (progress) => {
      if (methods.includes(progress.method)) {
        setHeard({ text: fileProgressText(progress), workId: progress.workId });
      }
    });
    return () => {
      stop();
      setHeard(null);
    };
  }, [methods, active]);
  return active ? heard : null;
}
