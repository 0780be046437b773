/**
 * Part (t): the parsers that read strangers' text, at three sizes, so their growth shows: key
 * redaction (the rule every stored string passes through, once per bound statement value),
 * the live web reader and a stored text's unpacking. Linear code costs about 4x from one size
 * to the next; quadratic code costs about 16x (the tests only check that 1 MB finishes).
 */
import { packText, unpackText } from '../src/main/engine/store/text-blobs';
import { redactKeyText } from '../src/main/engine/secrets';
import { htmlToText } from '../src/main/engine/substrates/web/html-text';
import { now, round } from './measure';

/** Milliseconds per input, by size in KiB. */
export interface StrangersTextResult {
  sizesKiB: number[];
  rows: { input: string; ms: number[] }[];
}

const sizes = [256 * 1024, 1024 * 1024, 4 * 1024 * 1024];

function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length));
}

/** The median of three timed runs of `work`, after one untimed run (V8 warms up). */
function timed(work: () => unknown): number {
  work();
  const runs = [0, 1, 2].map(() => {
    const started = now();
    work();
    return now() - started;
  });
  return round(runs.sort((a, b) => a - b)[1] ?? 0, 1);
}

/** Times every input at every size. */
export async function benchStrangersText(
  log: (line: string) => void,
): Promise<StrangersTextResult> {
  const inputs: [string, (size: number) => () => unknown][] = [
    ['redact sk- run', (size) => () => redactKeyText(fill('sk-', size))],
    ['redact AKIA near-misses', (size) => () => redactKeyText(fill('AKIA0123 ', size))],
    ['redact prose', (size) => () => redactKeyText(fill('the judge read a file. ', size))],
    ['html unclosed <script>', (size) => () => htmlToText(fill('<script>x', size))],
    ['html bare <', (size) => () => htmlToText(fill('< ', size))],
    [
      'unpack tool output',
      (size) => {
        const body = packText(fill('exit code: 0\nstdout: line\n', size));
        return () => unpackText(body);
      },
    ],
  ];
  const rows = inputs.map(([input, make]) => {
    const ms = sizes.map((size) => timed(make(size)));
    log(`  ${input.padEnd(26)} ${ms.map((value) => `${value} ms`).join('  ')}`);
    return { input, ms };
  });
  return Promise.resolve({ sizesKiB: sizes.map((size) => size / 1024), rows });
}
