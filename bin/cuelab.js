#!/usr/bin/env node
// The `cuelab` command: runs the built engine CLI under this Node. `npm install` builds it
// (the `prepare` script); after editing src/, `npm run build` refreshes it.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write(
    `cuelab: the engine is not built (${cli} is missing).\n` +
      `Run "npm run build" in ${join(__dirname, '..')} and try again.\n`,
  );
  process.exit(1);
}
require(cli);
