/**
 * Cancel, beside the busy line of file work (an import, a bundle opened or exported): asks the
 * engine to stop the work its progress events name (`cancelFileWork`). Escape does the same
 * while the work runs, unless something else took the key. The screen whose call it cancels
 * says "Cancelled" once that call answers so.
 */
import { useEffect, useState } from 'react';
import { labClientFor } from '../lib/engine-client';
import { useLab } from '../store';

/** The Cancel button for the work `workId` names (null: not heard of yet, so not yet active). */
export function CancelFileWork({ workId, label }: { workId: string | null; label: string }) {
  const address = useLab((state) => state.address);
  const [asked, setAsked] = useState<string | null>(null);
  const cancelling = workId !== null && asked === workId;

  useEffect(() => {
    if (!workId || !address) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.repeat) return;
      event.preventDefault();
      setAsked(workId);
      void labClientFor(address).cancelFileWork({ workId });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [workId, address]);

  return (
    <button
      type="button"
      className="button button-small"
      data-testid="cancel-file-work"
      aria-label={label}
      title={`${label} (Escape)`}
      disabled={!workId || !address || cancelling}
      onClick={() => {
        if (!workId || !address) return;
        setAsked(workId);
        void labClientFor(address).cancelFileWork({ workId });
      }}
    >
      {cancelling ? 'Cancelling…' : 'Cancel'}
    </button>
  );
}
