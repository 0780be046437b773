import { parseArgs } from 'node:util';
import { createEngine } from '../engine/engine';
import { saveSuite, listSuiteItemIds } from '../engine/store/suite-items';
import { listSuites } from '../engine/store/suites';
import { loadSuiteFile } from '../engine/suites/load';
import { workspaceForProcess } from '../engine/workspace';
import { exitCodes, UsageError, type CliCommand } from './command';

/** `cuelab suite`: import and list suites of judged items. */
export const suiteCommand: CliCommand = {
  name: 'suite',
  summary: 'Import a suite file into the workspace, or list suites and their items',
  usage: `Usage: cuelab suite import FILE [--workspace DIR]
       cuelab suite list [SUITE] [--workspace DIR]

import   validates FILE (the suite format in the README) and stores it in the workspace,
         replacing an earlier import with the same id; a bad file is rejected whole with
         every problem listed by field.
list     lists suites, or the items of SUITE.`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { workspace: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const [action, target, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    if (action !== 'import' && action !== 'list') {
      throw new UsageError(
        action
          ? `unknown action "${action}"; use import or list`
          : 'name an action: import or list',
      );
    }
    if (action === 'import' && !target) throw new UsageError('suite import needs a FILE');
    const suite = action === 'import' && target ? loadSuiteFile(target) : undefined;
    const engine = createEngine(workspaceForProcess(values.workspace));
    try {
      if (suite) {
        saveSuite(engine.store, suite, 'imported');
        io.out(
          `Imported suite ${suite.id} (${suite.items.length} items) into ${engine.workspace.path}.`,
        );
        return Promise.resolve(exitCodes.ok);
      }
      if (target) {
        const ids = listSuiteItemIds(engine.store, target);
        if (ids.length === 0) {
          io.err(`cuelab suite: there is no suite "${target}" in ${engine.workspace.path}.`);
          return Promise.resolve(exitCodes.failed);
        }
        for (const id of ids) io.out(id);
        return Promise.resolve(exitCodes.ok);
      }
      const suites = listSuites(engine.store);
      if (suites.length === 0) io.out('No suites yet. Import one with: cuelab suite import FILE');
      for (const entry of suites) io.out(`${entry.id}\t${entry.itemCount} items\t${entry.name}`);
      return Promise.resolve(exitCodes.ok);
    } finally {
      engine.close();
    }
  },
};
