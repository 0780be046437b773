/**
 * A value fetched from the engine, as the screen shows it. A failed reload keeps the last
 * value so the screen does not go blank while the engine is briefly away.
 */
export type Loadable<T> =
  | { state: 'idle' }
  | { state: 'loading'; value?: T }
  | { state: 'loaded'; value: T }
  | { state: 'failed'; error: string; value?: T };

/** The value a Loadable holds, if any. */
export function loadedValue<T>(loadable: Loadable<T>): T | undefined {
  return loadable.state === 'idle' ? undefined : loadable.value;
}
