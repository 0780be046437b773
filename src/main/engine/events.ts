import type { LabEventMessage } from '../../shared/lab-api';

/** A listener for engine events. */
export type EventListener = (event: LabEventMessage) => void;

/** Fan-out of engine events to transports (WebSocket clients, the CLI). */
export class EventHub {
  private readonly listeners = new Set<EventListener>();

  /** Adds a listener; returns its removal. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Delivers `event` to every listener; one failing listener does not stop the others. */
  publish(event: LabEventMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A transport that cannot deliver drops its own client; the engine goes on.
      }
    }
  }

  /** Number of current listeners. */
  get size(): number {
    return this.listeners.size;
  }
}
