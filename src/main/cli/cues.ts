import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { CUE_FAMILY_LIMITS, type CueFamily } from '../../shared/cue-family';
import { CommandError, exitCodes, UsageError, type CliCommand } from './command';
import { openLab, unwrap } from './connection';
import { readRegularFile } from '../engine/machine';

/** `cuelab cues`: list, show and import cue families. */
export const cuesCommand: CliCommand = {
  name: 'cues',
  summary: 'List, show and import cue families (the biases a study can plant)',
  usage: `Usage: cuelab cues list [--json] [--workspace DIR]
       cuelab cues show ID [--json] [--workspace DIR]
       cuelab cues import FILE [--workspace DIR]

A cue family is a JSON or YAML file (docs/CUE-FAMILIES.md): an id, a name, a description and
its source, templates per direction (severity, leniency) with a length-matched placebo, the
axes it varies and the placements it allows. Built-in families ship with CueLab; yours live in
the workspace's cue-families/ folder (import copies a validated file there as ID.json).
A study names a family cue as {kind: family, family: ID, template: N, placebo: true|false};
"cuelab prompt --cue-family ID" shows the exact prompt with the cue marked.`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: { workspace: { type: 'string' }, json: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    });
    const [action, argument, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
    if (action !== 'list' && action !== 'show' && action !== 'import')
      throw new UsageError('expected "cues list", "cues show ID" or "cues import FILE"');
    if (action !== 'list' && !argument)
      throw new UsageError(`"cues ${action}" needs ${action === 'show' ? 'an ID' : 'a FILE'}`);
    let text = '';
    if (action === 'import') {
      try {
        text = readRegularFile(
          argument ?? '',
          `the cue family ${argument ?? ''}`,
          CUE_FAMILY_LIMITS.fileBytes,
        ).toString('utf8');
      } catch (error) {
        throw new CommandError((error as Error).message);
      }
    }
    const session = openLab(context, values.workspace);
    try {
      if (action === 'import') {
        const { family } = unwrap(
          await session.api.importCueFamily({ text, name: basename(argument ?? 'family') }),
        );
        io.out(
          `imported cue family ${family.id} (${family.name}): ${family.templates.severity.length} severity, ${family.templates.leniency.length} leniency, ${family.templates.placebo.length} placebo template(s); placements ${family.placements.join(', ')}`,
        );
        return exitCodes.ok;
      }
      const { families, problems } = unwrap(await session.api.listCueFamilies({}));
      if (action === 'list') {
        if (values.json) io.out(JSON.stringify({ families, problems }, null, 2));
        else {
          for (const { family, origin } of families)
            io.out(`${family.id.padEnd(20)} ${origin.padEnd(9)} ${family.name}`);
          for (const problem of problems) io.err(`refused: ${problem}`);
        }
        return exitCodes.ok;
      }
      const entry = families.find((candidate) => candidate.family.id === argument);
      if (!entry) {
        io.err(
          `No cue family "${argument ?? ''}". Known: ${families.map((f) => f.family.id).join(', ')}.`,
        );
        return exitCodes.failed;
      }
      io.out(values.json ? JSON.stringify(entry.family, null, 2) : formatFamily(entry.family));
      return exitCodes.ok;
    } finally {
      await session.close();
    }
  },
};

/** A family as text: what it is, where from, every template. */
export function formatFamily(family: CueFamily): string {
  const lines = [
    `${family.id}: ${family.name} (${family.form})`,
    family.description,
    `source: ${family.source}`,
    `placements: ${family.placements.join(', ')}`,
    ...(family.axes.length > 0 ? [`axes: ${family.axes.join(', ')}`] : []),
    ...(family.simulatedShift === undefined
      ? []
      : [`synthetic judge: log-odds shift ${family.simulatedShift} (a hypothesis)`]),
  ];
  for (const direction of ['severity', 'leniency', 'placebo'] as const) {
    family.templates[direction].forEach((text, index) => {
      lines.push(`${direction} ${index}: ${text}`);
    });
  }
  return lines.join('\n');
}
