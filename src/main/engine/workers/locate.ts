/**
 * Where the worker program is. The built engine has it beside its bundle
 * (`out/main/engine-worker.js`, an electron-vite entry); the engine's own source (the tests, the
 * bench) runs `worker-main.ts` under tsx, the TypeScript loader the project already uses, so
 * both run the same code.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../errors';

/** The built program's file name, beside the CLI bundle (electron.vite.config.ts). */
const BUILT = 'engine-worker.js';

/** Starts one worker thread running the engine's worker program with `workerData`. */
export function startWorkerThread(workerData: unknown): Worker {
  // A bundle's shared code may sit in out/main/chunks: look there and one folder up.
  for (const folder of [__dirname, join(__dirname, '..')]) {
    const built = join(folder, BUILT);
    if (existsSync(built)) return new Worker(built, { workerData });
  }
  const source = join(__dirname, 'worker-main.ts');
  if (existsSync(source)) {
    const loader = createRequire(__filename).resolve('tsx/cjs');
    const program = `require(${JSON.stringify(loader)});\nrequire(${JSON.stringify(source)});`;
    return new Worker(program, { eval: true, workerData });
  }
  throw new EngineError(
    'internal',
    `The engine's worker program is missing (${join(__dirname, BUILT)}). Run "npm run build" and start the engine again.`,
  );
}
