import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatReadyLine } from '../../shared/ready-line';
import { createEngine, removeOrphans, workspaceForProcess } from '../engine/engine';
import { startServer, type RunningServer } from '../server/http-server';
import { exitCodes, UsageError, type CliCommand } from './command';

/** `cuelab serve`: the engine as a long-running local server for the window or a browser. */
export const serveCommand: CliCommand = {
  name: 'serve',
  // It is the engine: it opens the workspace here and serves it.
  local: true,
  summary: 'Start the engine on 127.0.0.1 and print the URL to open the lab in a browser',
  usage: `Usage: cuelab serve [--workspace DIR] [--port N]

Starts the CueLab engine on 127.0.0.1 and prints one line:
  CueLab engine ready at http://127.0.0.1:PORT/?token=TOKEN (workspace: DIR)
Open that URL in a browser to use the lab. The token is new at every launch and is
required by every /api request and by the event WebSocket.

Options:
  --workspace DIR   workspace folder (default: $CUELAB_WORKSPACE, else the platform's
                    application-data folder)
  --port N          port to listen on; 0 picks any free port (default 0)
  --allow-path DIR  a folder whose files clients may name by path (suite, results,
                    labels and bundle files, runs to import); repeatable. Without it
                    they may name files in the workspace and their own uploads only
  --exit-with-parent
                    stop when the process that started this one exits (the
                    Electron shell uses this so a crashed window leaves no engine)
  -h, --help        show this help`,
  async run(args, io) {
    // Read before the ready line: the parent may exit the moment it sees that line, and a
    // parent read afterwards would already be the reaper that adopted us.
    const parentAtStart = process.ppid;
    const { values } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        port: { type: 'string', default: '0' },
        'exit-with-parent': { type: 'boolean', default: false },
        'allow-path': { type: 'string', multiple: true, default: [] },
      },
      strict: true,
      allowPositionals: false,
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}".`);
    }
    const engine = createEngine(workspaceForProcess(values.workspace));
    const rendererDir = join(__dirname, '..', 'renderer');
    let server;
    try {
      server = await startServer({
        engine,
        rendererDir,
        port,
        allowedPaths: allowedFolders(values['allow-path']),
      });
    } catch (error) {
      engine.close();
      throw error;
    }
    listenToShell(server);
    // What would otherwise hold up the first requests is done before the ready line: the
    // built-in suites brought current, and (inside removeOrphans' first step) Docker's client
    // library loaded, about 180 ms of require on this thread.
    engine.refreshBuiltinSuites();
    // Containers left by an engine that crashed are removed in the background, then the
    // workspace's running studies go on. Stopping cancels the cleanup and waits for it, so
    // the runner can never start on a database that stop() has already closed.
    const cleanup = new AbortController();
    let stopping = false;
    const orphanCleanup = removeOrphans({ signal: cleanup.signal })
      .catch(() => [])
      .then(() => {
        if (!stopping) engine.startRunner();
      });
    io.out(formatReadyLine(server.address, engine.workspace.path));
    // Studies whose stored tables are missing or stale are drawn in the background, in the
    // reports worker, so every study opens warm; stopping cancels it.
    void engine.warmTables();
    // The workbench's pages are read in the reads worker: started now, not by the first page.
    engine.warmReads();

    const running = server;
    await new Promise<void>((resolve) => {
      const stop = () => {
        if (stopping) return;
        stopping = true;
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        cleanup.abort(new Error('the engine is stopping'));
        // The overall deadline: whatever still hangs (a Docker call, a provider) does not
        // keep a stopped engine alive. Unref'd, so a clean stop exits at once.
        setTimeout(() => {
          io.err(`The engine did not stop within ${stopDeadlineMs / 1000} s; exiting anyway.`);
          process.exit(exitCodes.failed);
        }, stopDeadlineMs).unref();
        void shutdown(orphanCleanup, engine, running).finally(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      if (values['exit-with-parent']) watchParent(parentAtStart, stop);
    });
    return exitCodes.ok;
  },
};

// In-flight reps are aborted at once (their jobs go back to the queue); Docker calls have
// their own 30 s deadline, so this is a backstop, not the expected time.
const stopDeadlineMs = 15_000;

/** Stops in order: orphan cleanup, runner, HTTP server, database; never rejects. */
async function shutdown(
  orphanCleanup: Promise<void>,
  engine: ReturnType<typeof createEngine>,
  server: { close(): Promise<void> },
): Promise<void> {
  await orphanCleanup;
  await engine.stopRunner().catch(() => undefined);
  await server.close().catch(() => undefined);
  engine.close();
}

/** Calls `stop` once `parent` is no longer this process's parent (it exited; we were adopted). */
function watchParent(parent: number, stop: () => void): void {
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, 1000);
  timer.unref();
}

/**
 * The desktop shell starts the engine with an IPC channel and sends the folder of each file the
 * user picks in a native dialog, so the window may then name it by path. Only the parent
 * process holds that channel: a token holder cannot widen what the engine reads.
 */
function listenToShell(server: RunningServer): void {
  if (!process.send) return;
  process.channel?.unref();
  process.on('message', (message: unknown) => {
    const folder = (message as { allowFolder?: unknown } | null)?.allowFolder;
    if (typeof folder !== 'string' || !isAbsolute(folder)) return;
    try {
      if (statSync(folder).isDirectory()) server.allowFolder(folder);
    } catch {
      // A folder gone by now is simply not added.
    }
  });
}

/** The `--allow-path` folders, absolute; a path that is not an existing folder is a usage error. */
function allowedFolders(paths: readonly string[]): string[] {
  return paths.map((path) => {
    const folder = resolve(path);
    if (!existsSync(folder) || !statSync(folder).isDirectory())
      throw new UsageError(`--allow-path ${path}: not a folder.`);
    return folder;
  });
}
