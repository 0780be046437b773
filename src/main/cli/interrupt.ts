/** Runs `work` with a signal that Ctrl-C (or SIGTERM) aborts, so cleanup runs on interrupt. */
export async function withInterrupt(
  work: (signal: AbortSignal) => Promise<number>,
): Promise<number> {
  const controller = new AbortController();
  const abort = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
}
