/**
 * Replay and Annotate keep their place in the hash: `#/replay/<studyId>/<repId>` and
 * `#/annotate/<studyId>`, so a reload or a shared link reopens the same pair or queue.
 */
import { useSyncExternalStore } from 'react';

/** The path segments after `#/<section>/`, decoded; empty when the hash is another section. */
export function hashSegments(section: string, hash: string): string[] {
  const prefix = `#/${section}/`;
  if (!hash.startsWith(prefix)) return [];
  return hash
    .slice(prefix.length)
    .split('?')[0]!
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part));
}

/** The hash that shows a study (and optionally one flipped rep) in Replay. */
export function replayHash(studyId: string, repId?: string): string {
  const base = `#/replay/${encodeURIComponent(studyId)}`;
  return repId ? `${base}/${encodeURIComponent(repId)}` : base;
}

/** The hash of a study's labelling queue. */
export function annotateHash(studyId: string): string {
  return `#/annotate/${encodeURIComponent(studyId)}`;
}

/** Goes to a hash; `replace` keeps the history entry (choosing a default). */
export function goToHash(hash: string, replace = false): void {
  if (replace) window.location.replace(hash);
  else window.location.hash = hash;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** One segment of the current hash under a section (0: study id, 1: rep id), following changes. */
export function useHashSegment(section: string, index: number): string | null {
  return useSyncExternalStore(
    subscribe,
    () => hashSegments(section, window.location.hash)[index] ?? null,
  );
}
