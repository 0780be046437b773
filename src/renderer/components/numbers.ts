/**
 * Number formats shared by the builder and the runs screens. Counts use tabular figures in
 * CSS (`.tabular`), so a streaming number never shifts its neighbours.
 */

const countFormat = new Intl.NumberFormat('en-US');

/** A whole count with thousands separators: 1,234. */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

/** US dollars: cents below $100, whole dollars above; `—` when unknown. */
export function formatUsd(value: number | null): string {
  if (value === null) return '—';
  if (value > 0 && value < 0.01) return '< $0.01';
  return `$${value.toLocaleString('en-US', {
    minimumFractionDigits: value >= 100 ? 0 : 2,
    maximumFractionDigits: value >= 100 ? 0 : 2,
  })}`;
}

/** A duration a person reads at a glance: 45 s, 12 min, 3 h 20 min, 2 d 4 h. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total} s`;
  const minutes = Math.round(total / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} h` : ''}`;
}

/** Bytes at a glance, in decimal units as disks are sold: 820 kB, 346 MB, 1.6 GB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}
