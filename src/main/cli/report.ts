import { parseArgs } from 'node:util';
import { isReportFormat, reportFormats } from '../../shared/lab-api/reports';
import { REPORT_TABLES, TABLE_NAMES, isTableName } from '../../shared/report-tables';
import { parseCardTolerance } from '../../shared/card-tolerance';
import { exitCodes, UsageError, type CliCommand } from './command';
import { openLab, unwrap } from './connection';

const tableList = (() => {
  const width = Math.max(...TABLE_NAMES.map((name) => name.length));
  return TABLE_NAMES.map((name) => `  ${name.padEnd(width)}  ${REPORT_TABLES[name].summary}`).join(
    '\n',
  );
})();

/** `cuelab report`: one table of a study, as the window shows it, in md, csv or json. */
export const reportCommand: CliCommand = {
  name: 'report',
  summary: 'Print one results table of a study (flips, accuracy, ...) as md, csv or json',
  usage: `Usage: cuelab report STUDY --table TABLE [--format md|csv|json] [--tolerance PP]
                     [--workspace DIR]

STUDY is an id, an id prefix, a study name, or "latest"; native and imported studies alike.
Prints one table with the same numbers the window shows (rates in percent, 95% CIs).

Tables:
${tableList}

Formats:
  md    an aligned markdown table with its title, n and notes (default)
  csv   RFC 4180, column keys as the header, full-precision numbers, a simulated column
  json  { name, title, study, simulated, reps, columns, rows, notes }

--tolerance PP (card only): an arm is FLAGGED only when its harmful flips beyond its family's
placebo have a 95% interval wholly above PP percentage points (default 0).

Tables built on synthetic-judge data are marked SIMULATED in every format.
With --engine URL --token T the table comes from that running engine.`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        table: { type: 'string' },
        format: { type: 'string', default: 'md' },
        tolerance: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1)
      throw new UsageError('give one STUDY (an id, id prefix, name or "latest")');
    const table = values.table;
    if (table === undefined || !isTableName(table))
      throw new UsageError(
        `${table === undefined ? 'name a table with --table' : `there is no table "${table}"`}; ` +
          `tables: ${TABLE_NAMES.join(', ')}`,
      );
    const format = values.format;
    if (!isReportFormat(format))
      throw new UsageError(`there is no format "${format}"; formats: ${reportFormats.join(', ')}`);
    const tolerance = toleranceOf(values.tolerance, table);
    const { api, close } = openLab(context, values.workspace, { readOnly: true });
    try {
      const { studyId } = unwrap(await api.resolveStudy({ reference: positionals[0] as string }));
      const { text } = unwrap(
        await api.formatReport({
          studyId,
          table,
          format,
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

/** The --tolerance value, checked; only the report card reads one. */
function toleranceOf(text: string | undefined, table: string): number | undefined {
  if (text === undefined) return undefined;
  if (table !== 'card') throw new UsageError('--tolerance is read only by --table card');
  const tolerance = parseCardTolerance(text);
  if (typeof tolerance === 'string') throw new UsageError(tolerance);
  return tolerance;
}
