/**
 * Finds the engine and keeps a live link to it.
 *
 * - In the Electron window the preload says where the engine is (`window.cuelab.getEngine()`)
 *   and tells us when the shell restarted it (`onEngineChange`).
 * - In a browser the page was opened from the URL `cuelab serve` printed: the token comes from
 *   `?token=`, leaves the address bar at once, and waits in sessionStorage so a reload works;
 *   the engine is the page's own origin.
 *
 * A link calls `health`, then opens the event WebSocket; when the socket closes it retries
 * with exponential backoff until it is closed itself.
 */
import type { EngineChange, NativeBridge } from '../../shared/native-bridge';
import {
  subscribeLabEvents,
  type EngineAddress,
  type WebSocketLike,
} from '../../shared/lab-client';
import type { StoreApi } from 'zustand';
import type { AllSlices } from '../store/types';
import { labClientFor } from './engine-client';
import { emitLabEvent } from './lab-events';

const tokenStorageKey = 'cuelab.engineToken';
const firstRetryMs = 500;
const longestRetryMs = 10_000;

/** Where the token was found in a page URL, and the URL without it. */
export interface UrlToken {
  /** The token, or null when the URL carries none. */
  token: string | null;
  /** Path, query and hash of the URL with the token removed. */
  cleanedPath: string;
}

/** Reads `?token=` from a URL and gives the URL without it (other parameters and hash kept). */
export function takeTokenFromUrl(href: string): UrlToken {
  const url = new URL(href);
  const token = url.searchParams.get('token');
  url.searchParams.delete('token');
  return { token: token || null, cleanedPath: `${url.pathname}${url.search}${url.hash}` };
}

/** Starts connecting; returns a function that closes every socket and timer. */
export function startEngineConnection(store: StoreApi<AllSlices>): () => void {
  const bridge = window.cuelab;
  return bridge ? connectThroughShell(store, bridge) : connectFromPage(store);
}

function connectThroughShell(store: StoreApi<AllSlices>, bridge: NativeBridge): () => void {
  let link: (() => void) | null = null;
  let stopped = false;
  let newestRestart = -1;
  const use = (change: EngineChange) => {
    // getEngine() can answer after a newer onEngineChange; keep the newest engine.
    if (stopped || change.restarts < newestRestart) return;
    newestRestart = change.restarts;
    link?.();
    store.getState().setEngineAddress(change.address, change.restarts);
    link = openLink(store, change.address, null);
  };
  const unsubscribe = bridge.onEngineChange(use);
  bridge.getEngine().then(use, (error: unknown) => {
    store
      .getState()
      .setDisconnected(`The desktop shell could not start the engine: ${describe(error)}`);
  });
  return () => {
    stopped = true;
    unsubscribe();
    link?.();
  };
}

function connectFromPage(store: StoreApi<AllSlices>): () => void {
  const { token: urlToken, cleanedPath } = takeTokenFromUrl(window.location.href);
  if (urlToken) {
    writeSession(urlToken);
    window.history.replaceState(window.history.state, '', cleanedPath);
  }
  const token = urlToken ?? readSession();
  if (!token) {
    store.getState().setAddressMissing(null);
    return () => undefined;
  }
  const address: EngineAddress = { baseUrl: `${window.location.origin}/`, token };
  store.getState().setEngineAddress(address, 0);
  return openLink(store, address, (problem) => {
    removeSession();
    store.getState().setAddressMissing(problem);
  });
}

/**
 * Keeps one address connected until the returned function is called. `onUnauthorized`
 * (browser only) ends the link when the engine refuses the token, e.g. after a restart.
 */
function openLink(
  store: StoreApi<AllSlices>,
  address: EngineAddress,
  onUnauthorized: ((problem: string) => void) | null,
): () => void {
  const client = labClientFor(address);
  let closed = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closeSocket: (() => void) | null = null;

  const retryLater = (problem: string) => {
    if (closed) return;
    store.getState().setDisconnected(problem);
    const delay = Math.min(firstRetryMs * 2 ** failures, longestRetryMs);
    failures += 1;
    retryTimer = setTimeout(() => void attempt(), delay);
  };

  const attempt = async () => {
    const health = await client.health({});
    if (closed) return;
    if (!health.ok) {
      if (health.error.code === 'unauthorized' && onUnauthorized) {
        closed = true;
        onUnauthorized(
          'The engine no longer accepts this page’s token; it was probably restarted.',
        );
        return;
      }
      retryLater(health.error.message);
      return;
    }
    let opened = false;
    closeSocket = subscribeLabEvents(address, createBrowserSocket, {
      onEvent: (event) => {
        if (event.stream === 'engine.hello') store.getState().updateHealth(event.data);
        emitLabEvent(event);
      },
      onConnectionChange: (connected) => {
        if (closed) return;
        if (connected) {
          opened = true;
          failures = 0;
          store.getState().setConnected(health.value);
          return;
        }
        closeSocket = null;
        retryLater(
          opened
            ? 'The connection to the engine closed.'
            : 'The engine answered but refused its event stream.',
        );
      },
    });
  };

  void attempt();
  return () => {
    closed = true;
    clearTimeout(retryTimer);
    closeSocket?.();
  };
}

/** The browser WebSocket behind the contract's minimal socket surface. */
function createBrowserSocket(url: string): WebSocketLike {
  const socket = new WebSocket(url);
  const like: WebSocketLike = {
    onopen: null,
    onclose: null,
    onerror: null,
    onmessage: null,
    close: () => socket.close(),
  };
  socket.onopen = (event) => like.onopen?.(event);
  socket.onclose = (event) => like.onclose?.(event);
  socket.onerror = (event) => like.onerror?.(event);
  socket.onmessage = (event) => like.onmessage?.({ data: event.data as unknown });
  return like;
}

function readSession(): string | null {
  try {
    return window.sessionStorage.getItem(tokenStorageKey);
  } catch {
    return null;
  }
}

function writeSession(token: string): void {
  try {
    window.sessionStorage.setItem(tokenStorageKey, token);
  } catch {
    // Without sessionStorage a reload needs the printed URL again.
  }
}

function removeSession(): void {
  try {
    window.sessionStorage.removeItem(tokenStorageKey);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
