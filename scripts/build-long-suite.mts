/**
 * Regenerates the built-in `cuelab-long` suite (resources/suites/cuelab-long.json) by running
 * each recipe's scripted agent in Docker (src/main/engine/suites/long/generate.ts). Maintainers
 * only: `npx tsx scripts/build-long-suite.mts [OUT]`. Needs Docker and `cuelab env bootstrap`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateLongSuite } from '../src/main/engine/suites/long/generate';
import { formatSuiteJson } from '../src/main/engine/suites/mini/suite-json';

const out =
  process.argv[2] ?? join(import.meta.dirname, '..', 'resources', 'suites', 'cuelab-long.json');
const suite = await generateLongSuite({ onProgress: (line) => console.log(line) });
writeFileSync(out, formatSuiteJson(suite));
const passing = suite.items.filter((item) => item.gold === 'pass').length;
console.log(`Wrote ${suite.items.length} items (${passing} pass) to ${out}.`);
