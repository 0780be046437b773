/** The study on the Results page lives in the hash: `#/results/<studyId>`. */
import { useSyncExternalStore } from 'react';

const prefix = '#/results';

/** The study id a hash names, or null. */
export function studyIdFromHash(hash: string): string | null {
  if (!hash.startsWith(`${prefix}/`)) return null;
  const id = decodeURIComponent(hash.slice(prefix.length + 1).split(/[/?]/)[0] ?? '');
  return id === '' ? null : id;
}

/** The hash that shows a study's results. */
export function resultsHash(studyId: string): string {
  return `${prefix}/${encodeURIComponent(studyId)}`;
}

const allRepsSuffix = '?reps=all';

/** The hash that shows a study's results with the reps panel open on every rep (from Replay). */
export function allRepsHash(studyId: string): string {
  return `${resultsHash(studyId)}${allRepsSuffix}`;
}

/** Whether a hash asks for the reps panel on every rep. */
export function wantsAllReps(hash: string): boolean {
  return hash.endsWith(allRepsSuffix);
}

/** Shows a study; `replace` keeps the history entry (choosing a default). */
export function showStudyResults(studyId: string, replace = false): void {
  if (replace) window.location.replace(resultsHash(studyId));
  else window.location.hash = resultsHash(studyId);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The study id in the hash, following changes. */
export function useHashStudyId(): string | null {
  return useSyncExternalStore(subscribe, () => studyIdFromHash(window.location.hash));
}
