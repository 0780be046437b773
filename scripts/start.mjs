// `npm start`: opens the lab. Builds first when the build is missing or older than src/ (one
// line on the terminal, the build's output in a log file), then
// opens the Electron window when Electron's binary is installed; otherwise says in one line
// why, serves the same lab (`cuelab serve`), prints its URL and opens the default browser when
// there is a display to open it on.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where Electron's binary is, or why there is none. Electron's npm package records the
 * binary's name in path.txt once its download ran, and keeps the binary under dist/.
 */
export function electronBinary(electronDir, env) {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(electronDir)) return { binary: null, reason: 'Electron is not installed' };
  if (!existsSync(pathFile) && !env.ELECTRON_OVERRIDE_DIST_PATH) {
    return {
      binary: null,
      reason: "Electron's binary was never downloaded (npm install could not reach its host)",
    };
  }
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(env.ELECTRON_OVERRIDE_DIST_PATH, name)
    : join(electronDir, 'dist', name);
  if (!existsSync(binary))
    return { binary: null, reason: `Electron's binary is missing (${binary})` };
  return { binary, reason: null };
}

/** The command that opens `url` in the default browser, or null with no display to show it. */
export function browserCommand(platform, env, url) {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return { command: 'xdg-open', args: [url] };
}

/** True when the built app is missing or older than the newest file under src/. */
export function needsBuild(projectRoot) {
  const built = [
    join(projectRoot, 'out', 'main', 'app.js'),
    join(projectRoot, 'out', 'main', 'cli.js'),
    join(projectRoot, 'out', 'renderer', 'index.html'),
  ];
  if (!built.every((file) => existsSync(file))) return true;
  const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs));
  return newestMtime(join(projectRoot, 'src')) > builtAt;
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/** Where the last build's full output goes: one line on the terminal, the rest here. */
function buildLogPath(tempDir = tmpdir()) {
  return join(tempDir, 'cuelab-build.log');
}

/**
 * Builds with its output in a log file and one line on the terminal; a failed build prints the
 * log's last lines (the error) and where the whole log is.
 */
function build() {
  const viteBin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const log = buildLogPath();
  process.stdout.write(`Building CueLab (about half a minute; full log: ${log})…\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [viteBin, 'build'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  writeFileSync(log, output);
  if (result.status !== 0) {
    const tail = output.trimEnd().split('\n').slice(-20).join('\n');
    process.stderr.write(`${tail}\nThe build failed; the full log is ${log}.\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`Built in ${Math.round((Date.now() - started) / 1000)} s.\n`);
}

/** Runs `command` to the end with this process's stdio, passing on Ctrl-C and kill. */
function runToEnd(command, args, options) {
  const child = spawn(command, args, { cwd: root, ...options });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return child;
}

function serveInBrowser(reason) {
  process.stdout.write(`${reason}, so the lab opens in your browser instead.\n`);
  const child = runToEnd(process.execPath, [join(root, 'bin', 'cuelab.js'), 'serve'], {
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  let opened = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    process.stdout.write(`${line}\n`);
    const url = /^CueLab engine ready at (\S+)/.exec(line)?.[1];
    if (!url || opened) return;
    opened = true;
    const opener = browserCommand(process.platform, process.env, url);
    if (!opener) return;
    const browser = spawn(opener.command, opener.args, { stdio: 'ignore', detached: true });
    browser.on('error', () => undefined);
    browser.unref();
  });
}

function main() {
  if (needsBuild(root)) build();
  const electron = electronBinary(join(root, 'node_modules', 'electron'), process.env);
  if (electron.binary) runToEnd(electron.binary, ['.'], { stdio: 'inherit' });
  else serveInBrowser(electron.reason);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
