/**
 * Fig. 5 and Fig. 15: the mixture of flip mechanisms per judge, from `mechanisms` and
 * `mechanisms-helpful` (one percentage column per label plus `other`, and n per row).
 */
import type { ReportTableOf } from '../table-values';

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
  /** True for the bar pooled over judges. */
  pooled: boolean;
  label: string;
  n: number;
  segments: MechanismSegment[];
}

/** A segment's key and legend name. */
interface SegmentKey<Key extends string> {
  readonly key: Key;
  readonly label: string;
}

const harmfulKeys = [
  { key: 'over_trust', label: 'Over-trust' },
  { key: 'hallucination', label: 'Hallucination' },
  { key: 'under_investigation', label: 'Under-investigation' },
  { key: 'other', label: 'Other' },
] as const;

const helpfulKeys = [
  { key: 'better_investigation', label: 'Better investigation' },
  { key: 'lucky_deference', label: 'Lucky deference' },
  { key: 'evidence_reweighting', label: 'Evidence re-weighting' },
  { key: 'other', label: 'Other' },
] as const;

/** The segments of each kind, in stacking order, with their legend names. */
export const mechanismKeys: Record<MechanismKind, readonly SegmentKey<string>[]> = {
  harmful: harmfulKeys,
  helpful: helpfulKeys,
};

/** The table of either kind (`mechanisms` or `mechanisms-helpful`). */
export type MechanismTable = ReportTableOf<'mechanisms' | 'mechanisms-helpful'>;

/** The fields every mechanism row has besides its label shares. */
interface MechanismRowBase {
  readonly labels: string;
  readonly judge: string;
  readonly n: number;
  readonly pooled: boolean;
}

/** The bars of a mechanism table: one per judge, then the pooled `all` row last. */
export function mechanismBars(table: MechanismTable | undefined): MechanismBar[] {
  if (!table) return [];
  return table.name === 'mechanisms'
    ? barsOf(table.rows, harmfulKeys)
    : barsOf(table.rows, helpfulKeys);
}

function barsOf<Key extends string>(
  rows: readonly (MechanismRowBase & Record<Key, number | null>)[],
  keys: readonly SegmentKey<Key>[],
): MechanismBar[] {
  // The figure shows the primary labels (ensemble or diff); per-voter rows (App. P) are in the table.
  const shown = rows.filter((row) => row.n > 0 && !row.labels.startsWith('voter:'));
  const ordered = [...shown.filter((row) => !row.pooled), ...shown.filter((row) => row.pooled)];
  return ordered.map((row) => {
    let start = 0;
    const segments = keys.map(({ key, label }) => {
      const pct = Math.max(0, row[key] ?? 0);
      const segment = { key, label, pct, start };
      start += pct;
      return segment;
    });
    return {
      judge: row.judge,
      pooled: row.pooled,
      label: row.pooled ? 'All judges' : row.judge,
      n: row.n,
      segments,
    };
  });
}
