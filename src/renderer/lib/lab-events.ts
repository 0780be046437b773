/**
 * Engine events fanned out to whoever listens (pages refetch on `studies.changed` and the
 * like). Events go to listeners directly, not into the store, so a busy stream does not
 * re-render the window.
 */
import type { LabEventData, LabEventMessage, LabEventStream } from '../../shared/lab-api';

type AnyListener = (data: unknown) => void;

const listeners = new Map<LabEventStream, Set<AnyListener>>();

/** Calls `listener` for each event on `stream`; returns an unsubscribe. */
export function onLabEvent<S extends LabEventStream>(
  stream: S,
  listener: (data: LabEventData<S>) => void,
): () => void {
  const set = listeners.get(stream) ?? new Set<AnyListener>();
  listeners.set(stream, set);
  const wrapped: AnyListener = (data) => listener(data as LabEventData<S>);
  set.add(wrapped);
  return () => set.delete(wrapped);
}

/** Delivers one event to its stream's listeners. */
export function emitLabEvent(event: LabEventMessage): void {
  for (const listener of listeners.get(event.stream) ?? []) listener(event.data);
}
