/**
 * LabApi methods the command line needs beyond the window's: finding a study by what a person
 * types, and a report table printed as text. They live in the contract (not in the CLI) so
 * `cuelab --engine URL` gets the same answers from a running engine as from a local one.
 * Merged into `labMethods` in lab-api.ts.
 */
import { z } from 'zod';

/** The formats `cuelab report` prints (and `formatReport` answers). */
export const reportFormats = ['md', 'csv', 'json'] as const;

/** One of reportFormats. */
export type ReportFormatName = (typeof reportFormats)[number];

/** True when `value` names a report format. */
export function isReportFormat(value: string): value is ReportFormatName {
  return (reportFormats as readonly string[]).includes(value);
}

/** Command-line methods. */
export const cliMethods = {
  /** A study by id, id prefix, exact name, or "latest" (not_found / bad_request otherwise). */
  resolveStudy: {
    request: z.object({ reference: z.string().min(1) }).strict(),
    response: z.object({ studyId: z.string() }),
  },
  /** One report table as text in md, csv or json: the exact bytes `cuelab report` prints. */
  formatReport: {
    request: z
      .object({
        studyId: z.string().min(1),
        table: z.string().min(1),
        format: z.enum(reportFormats),
      })
      .strict(),
    response: z.object({ text: z.string() }),
  },
} as const;
