/**
 * Who may talk to the engine's port. The token authorises a request; these
 * checks stop a web page the user visits from getting that far: a `Host` other than the
 * engine's own loopback address and port means DNS rebinding (evil.example resolved to
 * 127.0.0.1), and an `Origin` other than the engine's own page, the Electron window's file://
 * page (which browsers send as "null") or the dev server means another site's script.
 */
import type { IncomingMessage } from 'node:http';

/** Loopback host names the engine answers to. */
const loopbackHosts = ['127.0.0.1', 'localhost', '[::1]'];

/** The origins allowed to call the engine on `port`, plus `extra` (the dev server's). */
export function allowedOrigins(port: number, extra: readonly string[] = []): Set<string> {
  return new Set([
    ...loopbackHosts.map((host) => `http://${host}:${port}`),
    // The Electron window loads the built renderer from file://; its requests say "null".
    'null',
    ...extra,
  ]);
}

/** True when the Host header names the engine itself (loopback, its port). */
export function hostAllowed(request: IncomingMessage, port: number): boolean {
  const host = request.headers.host?.toLowerCase();
  return host !== undefined && loopbackHosts.some((name) => host === `${name}:${port}`);
}

/**
 * True when the request has no Origin (the CLI, curl, Node) or an allowed one. A browser
 * always sends Origin on cross-site POSTs and WebSocket handshakes, so a page elsewhere is out.
 */
export function originAllowed(request: IncomingMessage, origins: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  // A loopback page on another port is a CueLab page served by an engine before a restart (the
  // window follows the new port); it still needs the token, and Host stays strict.
  return origin === undefined || origins.has(origin) || loopbackOrigin.test(origin);
}

const loopbackOrigin = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;

/** CORS headers for an allowed origin: that origin echoed (never `*`), nothing otherwise. */
export function corsHeaders(request: IncomingMessage): Record<string, string> {
  const origin = request.headers.origin;
  const base = { vary: 'origin' };
  if (origin === undefined) return base;
  return {
    ...base,
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-max-age': '600',
  };
}

/** The dev server's origin when the shell runs with electron-vite's hot reload. */
export function devServerOrigins(env: Readonly<Record<string, string | undefined>>): string[] {
  const url = env.ELECTRON_RENDERER_URL;
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}
