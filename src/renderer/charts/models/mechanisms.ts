/**
 * Fig. 5 and Fig. 15: the mixture of flip mechanisms per judge, from `mechanisms` and
 * `mechanisms-helpful` (one percentage column per label plus `other`, and n per row).
 */
import { numberCell, textCell, type ReportTableData } from '../table-values';

/** Which flips the figure shows. */
export type MechanismKind = 'harmful' | 'helpful';

/** One segment of a stacked bar. */
export interface MechanismSegment {
  key: string;
  label: string;
  /** Share of the row's labelled flips, in percent. */
  pct: number;
  /** Where the segment starts on the 0..100 axis. */
  start: number;
}

/** One judge's bar (or every judge pooled). */
export interface MechanismBar {
  judge: string;
  label: string;
  n: number;
  segments: MechanismSegment[];
}

/** The segments of each kind, in stacking order, with their legend names. */
export const mechanismKeys: Record<MechanismKind, { key: string; label: string }[]> = {
  harmful: [
    { key: 'over_trust', label: 'Over-trust' },
    { key: 'hallucination', label: 'Hallucination' },
    { key: 'under_investigation', label: 'Under-investigation' },
    { key: 'other', label: 'Other' },
  ],
  helpful: [
    { key: 'better_investigation', label: 'Better investigation' },
    { key: 'lucky_deference', label: 'Lucky deference' },
    { key: 'evidence_reweighting', label: 'Evidence re-weighting' },
    { key: 'other', label: 'Other' },
  ],
};

/** The bars of a mechanism table: one per judge, then the pooled `all` row last. */
export function mechanismBars(
  table: ReportTableData | undefined,
  kind: MechanismKind,
): MechanismBar[] {
  // The figure shows the primary labels (ensemble or diff); per-voter rows (App. P) are in the table.
  const rows = (table?.rows ?? []).filter(
    (row) => (numberCell(row, 'n') ?? 0) > 0 && !textCell(row, 'labels').startsWith('voter:'),
  );
  const ordered = [
    ...rows.filter((row) => textCell(row, 'judge') !== 'all'),
    ...rows.filter((row) => textCell(row, 'judge') === 'all'),
  ];
  return ordered.map((row) => {
    const judge = textCell(row, 'judge');
    let start = 0;
    const segments = mechanismKeys[kind].map(({ key, label }) => {
      const pct = Math.max(0, numberCell(row, key) ?? 0);
      const segment = { key, label, pct, start };
      start += pct;
      return segment;
    });
    return {
      judge,
      label: judge === 'all' ? 'All judges' : judge,
      n: numberCell(row, 'n') ?? 0,
      segments,
    };
  });
}
