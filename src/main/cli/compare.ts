import { parseArgs } from 'node:util';
import { isReportFormat, reportFormats } from '../../shared/lab-api/reports';
import { exitCodes, UsageError, type CliCommand } from './command';
import { openLab, unwrap } from './connection';
import { parseCardTolerance } from '../../shared/card-tolerance';

/** `cuelab compare`: study B against study A, as the window's Compare view shows it. */
export const compareCommand: CliCommand = {
  name: 'compare',
  summary:
    'Compare the flip rates of two studies (B − A with 95% CIs and a test) as md, csv or json',
  usage: `Usage: cuelab compare A B [--format md|csv|json] [--items | --card [--tolerance PP]]
                     [--equivalence-margin PP] [--workspace DIR]

A and B are studies: an id, an id prefix, a study name, or "latest". For every judge ×
condition both studies ran, prints the harmful and helpful flip rates of each study and their
difference B − A in percentage points with a 95% interval and a p-value:
  paired    when the studies share items (only the shared items; Newcombe's paired interval,
            exact McNemar test)
  unpaired  otherwise (Newcombe's interval for independent samples, Fisher's exact test)
then the items whose outcome changed. Judges match by id; when one judge of each study is left
over, those two are compared (a rerun with a new model).

  --equivalence-margin PP  also test equivalence (TOST, α = 0.05): a rate row is "equivalent:
            yes" when Newcombe's 90% interval of B − A (paired or unpaired, as the row) lies
            inside ±PP percentage points, e.g. 5. For claims like "the mitigation leaves the
            bias where it was"; "not shown" means only that equivalence was not shown.

--card compares the two studies' report cards instead: for every judge × cue-family arm both
ran, each study's harmful flips beyond the family's placebo with its 95% interval and flag (at
--tolerance PP, default 0), B − A, and each judge's uncued accuracy, self-consistency and cost.

Formats:
  md    both tables, aligned markdown with their notes (default)
  csv   the rates table, or with --items the changed items; a simulated column on every row
  json  { studyA, studyB, simulated, reps, rates, changedItems, cards } (and equivalenceMarginPp)

Comparisons with synthetic-judge data in either study are marked SIMULATED in every format.`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        format: { type: 'string', default: 'md' },
        items: { type: 'boolean', default: false },
        'equivalence-margin': { type: 'string' },
        card: { type: 'boolean', default: false },
        tolerance: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 2)
      throw new UsageError('give two studies, A then B (each an id, id prefix, name or "latest")');
    const format = values.format;
    if (!isReportFormat(format))
      throw new UsageError(`there is no format "${format}"; formats: ${reportFormats.join(', ')}`);
    if (values.items && format !== 'csv')
      throw new UsageError('--items picks the csv table; md and json already hold both tables');
    const marginText = values['equivalence-margin'];
    const margin = marginText === undefined ? undefined : Number(marginText);
    if (margin !== undefined && !(Number.isFinite(margin) && margin > 0 && margin < 100))
      throw new UsageError(
        `--equivalence-margin takes percentage points between 0 and 100 (e.g. 5), got "${marginText}"`,
      );
    if (values.items && values.card)
      throw new UsageError('--items and --card pick different tables');
    if (values.tolerance !== undefined && !values.card)
      throw new UsageError('--tolerance is read only with --card');
    const tolerance =
      values.tolerance === undefined ? undefined : parseCardTolerance(values.tolerance);
    if (typeof tolerance === 'string') throw new UsageError(tolerance);
    const { api, close } = openLab(context, values.workspace);
    try {
      const resolve = async (reference: string) =>
        unwrap(await api.resolveStudy({ reference })).studyId;
      const a = await resolve(positionals[0] as string);
      const b = await resolve(positionals[1] as string);
      const { text } = unwrap(
        await api.formatComparison({
          studyA: a,
          studyB: b,
          format,
          part: values.card ? 'cards' : values.items ? 'items' : 'rates',
          ...(margin === undefined ? {} : { equivalenceMargin: margin / 100 }),
          ...(tolerance === undefined ? {} : { tolerancePp: tolerance }),
        }),
      );
      // csv ends every record with CRLF; io.out adds the final LF itself.
      io.out(format === 'csv' ? text.slice(0, -1) : text);
      return exitCodes.ok;
    } finally {
      await close();
    }
  },
};
