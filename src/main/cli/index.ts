import { runCli } from './main';

// Entry of `out/main/cli.js`, run by bin/cuelab.js under plain Node.

// `cuelab ... | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cuelab: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
