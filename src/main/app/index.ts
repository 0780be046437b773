/**
 * The Electron shell: one instance, one supervised engine, one window. The engine runs as a
 * separate plain-Node process (ARCHITECTURE.md, "Three processes, one contract"); this file
 * only wires it to the window and to quitting.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, safeStorage } from 'electron';
import { parseReadyLine } from '../../shared/ready-line';
import { appPage } from './app-page';
import { engineLaunch, EngineSupervisor } from './engine-supervisor';
import { installAppMenu } from './menu';
import { announceEngineChange, registerNativeIpc } from './native-ipc';
import { isKeyName } from '../../shared/secrets';
import { createSecretStore } from './secret-store';
import { createMainWindow, hardenSessions } from './window';

const page = appPage(join(__dirname, '../renderer'), process.env.ELECTRON_RENDERER_URL);
const preloadPath = join(__dirname, '../preload/index.js');

if (app.requestSingleInstanceLock()) {
  runShell();
} else {
  // Another CueLab window is already open; it is brought forward by its 'second-instance'.
  app.quit();
}

function runShell(): void {
  let mainWindow: BrowserWindow | undefined;
  const launch = engineLaunch({
    cliPath: join(__dirname, 'cli.js'),
    // The engine picks the workspace itself: --workspace, CUELAB_WORKSPACE, or app data.
    workspace: undefined,
    runtime: app.isPackaged
      ? { kind: 'electron-as-node', execPath: process.execPath }
      : { kind: 'node' },
    // A packaged app keeps the suites, studies and example runs outside its archive
    // (electron-builder.yml, extraResources), where the engine is told to look.
    ...(app.isPackaged
      ? { env: { ...process.env, CUELAB_RESOURCES: join(process.resourcesPath, 'resources') } }
      : {}),
  });
  const supervisor = new EngineSupervisor({
    launch,
    // Give a running sweep time to pause cleanly on quit.
    stopTimeoutMs: 10_000,
    onOutput: (stream, line) => {
      if (stream === 'stderr') console.error(`[engine] ${line}`);
      else if (!parseReadyLine(line)) console.log(`[engine] ${line}`);
    },
  });
  supervisor.on('ready', (change) => {
    const restarted = change.restarts > 0 ? ` (restart ${change.restarts})` : '';
    console.log(`[shell] engine ready at ${change.address.baseUrl}${restarted}`);
    if (change.restarts > 0) announceEngineChange(change);
  });
  supervisor.on('exit', (reason) => console.error(`[shell] ${reason}`));
  supervisor.on('failed', (error) => {
    console.error(`[shell] ${error.message}`);
    if (app.isReady()) dialog.showErrorBox('The CueLab engine stopped', error.message);
  });

  const showWindow = (): void => {
    if (mainWindow && !mainWindow.isDestroyed()) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
      return;
    }
    mainWindow = createMainWindow({ page, preloadPath });
    mainWindow.on('closed', () => {
      mainWindow = undefined;
    });
  };

  app.on('second-instance', showWindow);
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) showWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Stop the engine before the app goes: quitting waits for it (SIGTERM, then SIGKILL).
  let engineStopped = false;
  let stopping: Promise<void> | undefined;
  app.on('before-quit', (event) => {
    if (engineStopped) return;
    event.preventDefault();
    stopping ??= supervisor
      .stop()
      .catch((error: unknown) => console.error('[shell] stopping the engine failed:', error))
      .finally(() => {
        engineStopped = true;
        app.quit();
      });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app
    .whenReady()
    .then(() => {
      hardenSessions(page);
      installAppMenu();
      // Keys kept with safeStorage reach the engine through its environment.
      const secrets = createSecretStore({
        folder: app.getPath('userData'),
        safeStorage,
        platform: process.platform,
      });
      Object.assign(launch.env, secrets.load());
      registerNativeIpc({
        whenEngineReady: () => supervisor.whenReady(),
        isAppUrl: (url) => page.isAppUrl(url),
        allowFolder: (folder) => supervisor.allowFolder(folder),
        storeSecret: (name, value) => {
          // Only key names reach the engine's environment: never NODE_OPTIONS, PATH, …
          if (!isKeyName(name)) return false;
          if (value === '') delete launch.env[name];
          else launch.env[name] = value;
          const outcome = secrets.store(name, value);
          if (!outcome.stored) console.warn(`[shell] ${name} was not saved: ${outcome.reason}`);
          return outcome.stored;
        },
      });
      // A failed start is reported by the 'failed' event and by getEngine in the window.
      supervisor.start().catch(() => undefined);
      showWindow();
    })
    .catch((error: unknown) => {
      console.error('[shell] CueLab could not start:', error);
      app.exit(1);
    });
}
