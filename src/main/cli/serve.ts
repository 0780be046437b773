import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatReadyLine } from '../../shared/ready-line';
import { createEngine } from '../engine/engine';
import { removeOrphans } from '../engine/environments/docker/orphans';
import { workspaceForProcess } from '../engine/workspace';
import { startServer } from '../server/http-server';
import { exitCodes, UsageError, type CliCommand } from './command';

/** `cuelab serve`: the engine as a long-running local server for the window or a browser. */
export const serveCommand: CliCommand = {
  name: 'serve',
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
  --exit-with-parent
                    stop when the process that started this one exits (the
                    Electron shell uses this so a crashed window leaves no engine)
  -h, --help        show this help`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        port: { type: 'string', default: '0' },
        'exit-with-parent': { type: 'boolean', default: false },
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
      server = await startServer({ engine, rendererDir, port });
    } catch (error) {
      engine.close();
      throw error;
    }
    io.out(formatReadyLine(server.address, engine.workspace.path));
    // Containers left by an engine that crashed are removed in the background, then the
    // workspace's running studies go on.
    void removeOrphans()
      .catch(() => [])
      .finally(() => engine.startRunner());

    const running = server;
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void engine
          .stopRunner()
          .then(() => running.close())
          .finally(() => {
            engine.close();
            resolve();
          });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      if (values['exit-with-parent']) watchParent(stop);
    });
    return exitCodes.ok;
  },
};

/** Calls `stop` once the parent process is gone (the process is re-parented). */
function watchParent(stop: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, 1000);
  timer.unref();
}
