/**
 * The main window and the guards every web page in the app gets: no new windows, no
 * navigation away from the app's page (http(s) links open in the system browser), no
 * webviews, no permissions beyond clipboard writes and full screen, and a Content-Security-Policy header on the built page.
 */
import { app, BrowserWindow, session, shell } from 'electron';
import { contentSecurityPolicy, externalHttpUrl, type AppPage } from './app-page';

/** What `createMainWindow` needs. */
export interface MainWindowOptions {
  page: AppPage;
  /** Absolute path of the built preload (`out/preload/index.js`). */
  preloadPath: string;
}

/** Opens the 1280×800 window on the app's page; it shows once the first paint is ready. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 680,
    show: false,
    title: 'CueLab',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.on('will-navigate', (event) => {
    if (options.page.isAppUrl(event.url)) return;
    event.preventDefault();
    openInBrowser(event.url);
  });
  window.webContents.on('will-redirect', (event) => {
    if (!options.page.isAppUrl(event.url)) event.preventDefault();
  });
  loadPage(window, options.page.url);
  return window;
}

/** App-wide hardening; call once, before the first window opens. */
export function hardenSessions(page: AppPage): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      openInBrowser(url);
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  // Only the app's page, and only for copying results and full-screen charts.
  const allowed = new Set<string>(['clipboard-sanitized-write', 'fullscreen']);
  session.defaultSession.setPermissionRequestHandler((_contents, permission, decide, details) =>
    decide(allowed.has(permission) && page.isAppUrl(details.requestingUrl)),
  );
  session.defaultSession.setPermissionCheckHandler(
    (_contents, permission, _origin, details) =>
      allowed.has(permission) && page.isAppUrl(details.requestingUrl ?? ''),
  );
  // The dev server needs its inline hot-reload preamble; the built page gets the strict policy.
  if (page.isDevServer) return;
  session.defaultSession.webRequest.onHeadersReceived((details, respond) => {
    if (details.resourceType !== 'mainFrame' || !page.isAppUrl(details.url)) {
      respond({});
      return;
    }
    respond({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [contentSecurityPolicy],
      },
    });
  });
}

/** Opens an http(s) URL in the system browser; other schemes are ignored. */
export function openInBrowser(candidate: string): void {
  const url = externalHttpUrl(candidate);
  if (url === null) return;
  shell.openExternal(url).catch((error: unknown) => {
    console.error(`CueLab could not open ${url} in the browser:`, error);
  });
}

function loadPage(window: BrowserWindow, url: string): void {
  window.loadURL(url).catch((error: unknown) => {
    console.error(`CueLab could not load its page ${url}:`, error);
  });
}
