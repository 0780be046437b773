/**
 * An engine in this process on a workspace, for filling it before `cuelab serve` starts on it
 * (the real runner, classifier and store, with no second process writing at the same time).
 */
import { createEngine, type Engine } from '../../../src/main/engine/engine';

/** Runs `work` on an in-process engine over `workspace` and closes the engine after. */
export async function withLocalEngine<T>(
  workspace: string,
  work: (engine: Engine) => Promise<T>,
): Promise<T> {
  const local = createEngine({ path: workspace, source: 'flag' });
  try {
    return await work(local);
  } finally {
    local.close();
  }
}
