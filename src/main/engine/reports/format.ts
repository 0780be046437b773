/**
 * Printing a ReportTable: md (an aligned GitHub table with title, n and notes), csv (RFC 4180,
 * keys as the header, full-precision numbers) and json (the table as it is). Synthetic data is
 * marked in every format: md's first line, a `simulated` column on csv's header and every row
 * (a comment line would break some CSV readers), json's `simulated` field.
 */
import { formatCsvRecords } from './csv';
import { redactKeyText } from '../secrets';
import { type ReportCell, type ReportColumn, type ReportTable, SIMULATED_NOTE } from '../analysis';

/** The output formats of `cuelab report`. */
export const REPORT_FORMATS = ['md', 'csv', 'json'] as const;

/** One of REPORT_FORMATS. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What the printers need: a report table under any name (a comparison prints the same way). */
export type PrintedTable = Omit<ReportTable, 'name'> & { readonly name: string };

/** A cell as md shows it. */
export function displayCell(value: ReportCell, column: ReportColumn): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  if (column.unit === 'p' && value < 0.001) return '<0.001';
  const digits =
    column.digits ??
    (column.unit === '%' || column.unit === 'pp'
      ? 1
      : column.unit === 'p' || column.unit === 'r'
        ? 3
        : Number.isInteger(value)
          ? 0
          : 3);
  return value.toFixed(digits);
}

interface MdColumn {
  readonly label: string;
  readonly numeric: boolean;
  readonly cell: (row: ReportTable['rows'][number]) => string;
}

/** md columns: an interval's low and high bounds become one "[low, high]" column. */
function mdColumns(table: PrintedTable): MdColumn[] {
  const out: MdColumn[] = [];
  const columns = table.columns;
  const numeric = (key: string) => table.rows.some((row) => typeof row[key] === 'number');
  for (let index = 0; index < columns.length; index += 1) {
    const column = columns[index] as ReportColumn;
    const next = columns[index + 1];
    if (column.interval === 'low' && next?.interval === 'high') {
      index += 1;
      out.push({
        label: column.label.replace(/ low$/, ''),
        numeric: false,
        cell: (row) => {
          const low = row[column.key] ?? null;
          const high = row[next.key] ?? null;
          return low === null || high === null
            ? '—'
            : `[${displayCell(low, column)}, ${displayCell(high, next)}]`;
        },
      });
      continue;
    }
    out.push({
      label: column.label,
      numeric: numeric(column.key),
      cell: (row) => displayCell(row[column.key] ?? null, column),
    });
  }
  return out;
}

function mdEscape(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

/** An aligned GitHub-flavoured markdown table with its title, n and notes. */
export function formatMarkdown(table: PrintedTable): string {
  const lines: string[] = [];
  if (table.simulated) lines.push(`**${SIMULATED_NOTE}** (not a measurement of a real model)`, '');
  lines.push(`## ${table.title}`, '');
  const study = table.study ? `study "${table.study.name}" (${table.study.id}), ` : '';
  const rowCount = `${table.rows.length} row${table.rows.length === 1 ? '' : 's'}`;
  lines.push(`${study}n = ${table.reps} reps, ${rowCount}`, '');
  if (table.rows.length === 0) lines.push('(no rows)');
  else {
    const columns = mdColumns(table);
    const cells = table.rows.map((row) => columns.map((column) => mdEscape(column.cell(row))));
    const widths = columns.map((column, index) =>
      Math.max(
        3,
        mdEscape(column.label).length,
        ...cells.map((row) => (row[index] as string).length),
      ),
    );
    const render = (values: readonly string[]) =>
      `| ${values
        .map((value, index) =>
          (columns[index] as MdColumn).numeric
            ? value.padStart(widths[index] as number)
            : value.padEnd(widths[index] as number),
        )
        .join(' | ')} |`;
    lines.push(render(columns.map((column) => mdEscape(column.label))));
    lines.push(
      `| ${columns
        .map((column, index) => {
          const dashes = '-'.repeat(widths[index] as number);
          return column.numeric ? `${dashes.slice(1)}:` : dashes;
        })
        .join(' | ')} |`,
    );
    for (const row of cells) lines.push(render(row));
  }
  const notes = table.notes.filter((note) => note !== SIMULATED_NOTE);
  if (notes.length) lines.push('', 'Notes:', ...notes.map((note) => `- ${note}`));
  return lines.join('\n');
}

function csvCell(value: ReportCell | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'number' ? String(value) : value;
}

/** RFC 4180 text (CRLF line ends): column keys, then a `simulated` column on every row. */
export function formatCsv(table: PrintedTable): string {
  const flag = table.simulated ? 'true' : 'false';
  return formatCsvRecords([
    [...table.columns.map((column) => column.key), 'simulated'],
    ...table.rows.map((row) => [...table.columns.map((column) => csvCell(row[column.key])), flag]),
  ]);
}

/** The table as JSON. */
export function formatJson(table: PrintedTable): string {
  const { name, title, study, simulated, reps, columns, rows, notes } = table;
  return JSON.stringify({ name, title, study, simulated, reps, columns, rows, notes }, null, 2);
}

/** The table in one of the formats, keys redacted (a name or note may carry one). */
export function formatTable(table: PrintedTable, format: ReportFormat): string {
  switch (format) {
    case 'md':
      return redactKeyText(formatMarkdown(table));
    case 'csv':
      return formatCsv(table);
    case 'json':
      return redactKeyText(formatJson(table));
  }
}
