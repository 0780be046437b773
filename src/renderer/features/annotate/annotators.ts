/**
 * Annotator names used in this browser profile, most recent first, kept in localStorage so a
 * returning annotator picks their name with one click. Several annotators share a workspace.
 */
const storageKey = 'cuelab.annotators';
const keep = 8;

/** Same rule as the engine (letters, digits, space, ".", "_", "-"; at most 80 characters). */
export const annotatorPattern = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,79}$/;

/** The names kept, most recent first; [] when storage is unavailable or holds garbage. */
export function readRecentAnnotators(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(storageKey) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter(
          (name): name is string => typeof name === 'string' && annotatorPattern.test(name),
        )
      : [];
  } catch {
    return [];
  }
}

/** Puts a name first in the recent list. */
export function rememberAnnotator(name: string): void {
  const names = [name, ...readRecentAnnotators().filter((entry) => entry !== name)].slice(0, keep);
  try {
    window.localStorage.setItem(storageKey, JSON.stringify(names));
  } catch {
    // Private mode or a full quota: the picker simply offers no recent names.
  }
}
