import { useLab } from '../store';

/** A thin notice above the page while the engine is away; the link keeps retrying. */
export function ConnectionBanner() {
  const status = useLab((state) => state.status);
  const lastError = useLab((state) => state.lastError);
  const inBrowser = !window.cuelab;
  if (status !== 'disconnected') return null;
  return (
    <div className="banner banner-warning" role="alert">
      <strong>Lost the engine; retrying.</strong> {lastError ?? 'It stopped answering.'}
      {inBrowser && (
        <>
          {' '}
          If you restarted <code>cuelab serve</code>, open the new URL it printed.
        </>
      )}
    </div>
  );
}
