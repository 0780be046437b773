/**
 * "Did you mean": the known name closest to a mistyped one, by Damerau-Levenshtein distance
 * (optimal string alignment: an insertion, deletion, substitution or swap of two neighbouring
 * letters costs one), so `--tabel` finds `--table` and `stauts` finds `status`.
 */

/** Edits (insert, delete, substitute, swap neighbours) that turn `from` into `to`. */
export function editDistance(from: string, to: string): number {
  const rows = from.length + 1;
  const columns = to.length + 1;
  const distance: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  const at = (row: number, column: number) => distance[row]?.[column] ?? 0;
  for (let row = 1; row < rows; row += 1) {
    for (let column = 1; column < columns; column += 1) {
      const cost = from[row - 1] === to[column - 1] ? 0 : 1;
      let best = Math.min(
        at(row - 1, column) + 1,
        at(row, column - 1) + 1,
        at(row - 1, column - 1) + cost,
      );
      const swapped =
        row > 1 &&
        column > 1 &&
        from[row - 1] === to[column - 2] &&
        from[row - 2] === to[column - 1];
      if (swapped) best = Math.min(best, at(row - 2, column - 2) + 1);
      (distance[row] as number[])[column] = best;
    }
  }
  return at(rows - 1, columns - 1);
}

/**
 * The known name nearest to `typed`, when it is near enough to be what was meant: at most
 * one edit for short names, two from six letters, three from ten. Ties go to the first known.
 */
export function closestName(typed: string, known: readonly string[]): string | null {
  const letters = typed.replace(/^-+/, '').length;
  const allowed = letters >= 10 ? 3 : letters >= 6 ? 2 : 1;
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}

/** ` Did you mean "x"?` when one known name is near `typed`, else an empty string. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const name = closestName(typed, known);
  return name ? ` Did you mean "${name}"?` : '';
}

/** The long options a usage text lists (`--table NAME`, `--json`), in order, once each. */
export function optionsInUsage(usage: string): string[] {
  return [...new Set(usage.match(/--[a-z][a-z0-9-]*/g) ?? [])];
}

/**
 * Node's parseArgs errors in plain words, with a suggestion for a mistyped option:
 * `unknown option "--tabel". Did you mean "--table"?`. Returns null for any other error.
 */
export function plainParseError(error: unknown, usage: string): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return null;
  const message = (error as Error).message;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const option = quoted.replace(/ <value>$/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return `unknown option "${option}".${didYouMean(option, optionsInUsage(usage))}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `"${quoted}" is not expected here: this command takes options only.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('argument missing')) return `${option} needs a value.`;
    if (message.includes('does not take an argument')) return `${option} takes no value.`;
  }
  return message;
}
