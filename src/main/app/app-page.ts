/**
 * Which URLs are the app's own page and which may leave for the system browser. No electron
 * import: pure URL checks the window and the IPC handlers share.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The page the window shows, and how to recognise it. */
export interface AppPage {
  /** URL the window loads. */
  url: string;
  /** True for the app's page (any hash or query); false for everything else. */
  isAppUrl(candidate: string): boolean;
  /** True in development, when electron-vite serves the renderer with hot reload. */
  isDevServer: boolean;
}

/**
 * The built renderer `rendererDir/index.html`, or electron-vite's dev server when
 * `devServerUrl` (ELECTRON_RENDERER_URL) is set.
 */
export function appPage(rendererDir: string, devServerUrl: string | undefined): AppPage {
  if (devServerUrl) {
    const origin = new URL(devServerUrl).origin;
    return {
      url: devServerUrl,
      isDevServer: true,
      isAppUrl: (candidate) => parseUrl(candidate)?.origin === origin,
    };
  }
  const page = pathToFileURL(join(rendererDir, 'index.html'));
  return {
    url: page.href,
    isDevServer: false,
    isAppUrl: (candidate) => {
      const url = parseUrl(candidate);
      return url !== null && url.protocol === 'file:' && url.pathname === page.pathname;
    },
  };
}

/** The URL as a string when it is an absolute http(s) URL; null for anything else. */
export function externalHttpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 8192) return null;
  const url = parseUrl(value);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : null;
}

/**
 * The window's Content-Security-Policy, sent as a header on the built page (the page's own
 * meta tag says the same). The engine runs on loopback, so fetch and WebSocket may reach
 * 127.0.0.1 on any port and nothing else.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' http://127.0.0.1:* ws://127.0.0.1:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
