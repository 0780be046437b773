/**
 * Cancel, beside the busy line of file work (an import, a bundle opened or exported, an
 * upload): asks the engine to stop the work its progress events name (`cancelFileWork`).
 * Escape does the same while the work runs, unless something else took the key. The screen
 * whose call it cancels says "Cancelled" once that call answers so.
 */
import { useCallback, useEffect, useState } from 'react';
import { labClientFor } from '../lib/engine-client';
import { useLab } from '../store';

/**
 * The Cancel button for the work `workId` names (null: not heard of yet). `onCancel` also
 * stops what the window itself does around that work (an upload's further requests); with it
 * the button is active before the engine's work is heard of, and says "Cancelling…" from the
 * press until the screen takes it away.
 */
export function CancelFileWork({
  workId,
  label,
  onCancel,
}: {
  workId: string | null;
  label: string;
  onCancel?: () => void;
}) {
  const address = useLab((state) => state.address);
  const [asked, setAsked] = useState<{ workId: string | null } | null>(null);
  const cancelling = asked !== null && (onCancel !== undefined || asked.workId === workId);
  const canCancel = address !== null && (workId !== null || onCancel !== undefined);

  const press = useCallback(() => {
    if (!address) return;
    setAsked({ workId });
    onCancel?.();
    if (workId) void labClientFor(address).cancelFileWork({ workId });
  }, [address, workId, onCancel]);

  useEffect(() => {
    if (!canCancel || cancelling) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.repeat) return;
      event.preventDefault();
      press();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canCancel, cancelling, press]);

  return (
    <button
      type="button"
      className="button button-small"
      data-testid="cancel-file-work"
      aria-label={label}
      title={`${label} (Escape)`}
      disabled={!canCancel || cancelling}
      onClick={press}
    >
      {cancelling ? 'Cancelling…' : 'Cancel'}
    </button>
  );
}
