import { parseArgs } from 'node:util';
import type { ImportFormat } from '../../shared/suite-format';
import { exitCodes, UsageError, type CliCommand } from './command';
import { didYouMean } from './suggest';
import { openLab, unwrap } from './connection';
import { fileForEngine } from './files';
import { importFormat, importRunsCommand, isCuelabSuiteFile, showSuite } from './suite-import';
import { buildMiniCommand, verifyCommand } from './suite-verify';

const actions = ['import', 'list', 'show', 'verify', 'build-mini'] as const;

/** `cuelab suite`: import, list and verify suites of judged items. */
export const suiteCommand: CliCommand = {
  name: 'suite',
  summary: 'Import a suite file into the workspace, list suites and their items, verify labels',
  usage: `Usage: cuelab suite import PATH [--format FORMAT] [--name SUITE] [--tasks DIR]
                         [--tool-output-limit N|unbounded] [--keep-flagged]
                         [--allow-duplicate] [--json]
       cuelab suite list [SUITE] [--workspace DIR]
       cuelab suite show SUITE [--workspace DIR]
       cuelab suite verify SUITE [--item ID]... [--workspace DIR]

import   stores a suite in the workspace, replacing an earlier one with the same id.
         A CueLab suite file (the format in the README) is validated and rejected whole
         on any problem. Any other PATH (a file or a folder) is read as other harnesses'
         runs: --format auto (default), mini-swe-agent, swe-agent, terminal-bench,
         harbor, mcpmark or inspect. Each run becomes an item with its gold label, its
         environment and its provenance (source file, format, sha256); a run that cannot
         be read is skipped and named with the reason, a run whose agent never ran is
         skipped unless --keep-flagged. Nothing is stored unless at least one run
         imports. --name names the suite (default: the folder's name); --tasks DIR holds
         task folders (Terminal-Bench task.yaml + Dockerfile, Harbor task.toml) the run
         folder lacks; --tool-output-limit cuts each tool output the judge reads to N
         characters, head and tail kept, the cut marked (default 4000). Runs another
         imported suite already holds (same file and run) are refused, naming that
         suite, unless --allow-duplicate. A run whose steps could not all be recovered
         (fewer commands or tool calls than its files show) is imported with a WARNING.
list     lists suites (built-in ones included), or the items of SUITE.
show     prints each item of SUITE: gold label, message count, environment, provenance.
verify   rebuilds each item of SUITE (a built-in id, a suite file, or a suite in the
         workspace) in Docker as a judge would get it, runs its verifier there, and compares
         the verdict (and the item's decisive probes) with the stored gold label. Prints a
         line per item; exits 1 listing every item that disagrees. Needs Docker and the base
         image (cuelab env bootstrap).

For maintainers: cuelab suite build-mini [--out FILE] regenerates the built-in cuelab-mini
suite by running its scripted agents in Docker (default: resources/suites/cuelab-mini.json).`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        item: { type: 'string', multiple: true },
        out: { type: 'string' },
        format: { type: 'string' },
        name: { type: 'string' },
        tasks: { type: 'string' },
        'tool-output-limit': { type: 'string' },
        'keep-flagged': { type: 'boolean' },
        'allow-duplicate': { type: 'boolean' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    const [action, target, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    if (!(actions as readonly (string | undefined)[]).includes(action)) {
      throw new UsageError(
        action
          ? `unknown action "${action}".${didYouMean(action, actions)} Use import, list, show or verify.`
          : 'name an action: import, list, show or verify',
      );
    }
    if (values.item && action !== 'verify') throw new UsageError('--item is for suite verify');
    if (values.out && action !== 'build-mini') throw new UsageError('--out is for build-mini');
    if ((action === 'build-mini' || action === 'verify') && context?.remote)
      throw new UsageError(
        `suite ${action} runs Docker on this machine and does not take --engine / --token`,
      );
    if (action === 'build-mini') {
      if (target) throw new UsageError(`unexpected arguments: ${target}`);
      return buildMiniCommand(io, values.out);
    }
    if (action === 'verify') {
      if (!target) throw new UsageError('suite verify needs a SUITE');
      return verifyCommand(io, target, values.item ?? [], values.workspace);
    }
    const importFlags = [values.format, values.name, values.tasks, values['tool-output-limit']];
    if (
      action !== 'import' &&
      (importFlags.some((flag) => flag !== undefined) ||
        values['keep-flagged'] ||
        values['allow-duplicate'] ||
        values.json)
    ) {
      throw new UsageError(
        '--format, --name, --tasks, --tool-output-limit, --keep-flagged, --allow-duplicate and ' +
          '--json are for suite import',
      );
    }
    if (action === 'import' && !target) throw new UsageError('suite import needs a PATH');
    if (action === 'show' && !target) throw new UsageError('suite show needs a SUITE');
    const format = importFormat(values.format);
    const ownFormat =
      action === 'import' &&
      target &&
      (format === 'cuelab' || (format === 'auto' && isCuelabSuiteFile(target)));
    const session = openLab(context, values.workspace, {
      readOnly: action === 'list' || action === 'show',
    });
    try {
      const { api } = session;
      if (action === 'import' && target && !ownFormat) {
        return await importRunsCommand(
          session,
          target,
          format as 'auto' | ImportFormat,
          {
            ...(values.name ? { name: values.name } : {}),
            ...(values.tasks ? { tasks: values.tasks } : {}),
            ...(values['tool-output-limit']
              ? { toolOutputLimit: values['tool-output-limit'] }
              : {}),
            keepFlagged: values['keep-flagged'] ?? false,
            allowDuplicate: values['allow-duplicate'] ?? false,
            json: values.json ?? false,
          },
          io,
        );
      }
      if (action === 'show' && target) return await showSuite(session, target, io);
      if (action === 'import' && target) {
        const path = await fileForEngine(session, target);
        const saved = unwrap(await api.importSuiteFile({ path, fileName: target }));
        io.out(`Imported suite ${saved.suiteId} (${saved.items} items) into ${saved.workspace}.`);
        return exitCodes.ok;
      }
      const catalog = unwrap(await api.suiteCatalog(target ? { suiteId: target } : {}));
      if (target) {
        if (catalog.itemIds.length === 0) {
          io.err(`cuelab suite: there is no suite "${target}" in ${catalog.workspace}.`);
          return exitCodes.failed;
        }
        for (const id of catalog.itemIds) io.out(id);
        return exitCodes.ok;
      }
      if (catalog.suites.length === 0)
        io.out('No suites yet. Import one with: cuelab suite import FILE');
      for (const entry of catalog.suites)
        io.out(`${entry.id}\t${entry.itemCount} items\t${entry.name}`);
      return exitCodes.ok;
    } finally {
      await session.close();
    }
  },
};
