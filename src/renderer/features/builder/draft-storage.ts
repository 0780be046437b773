/**
 * The draft survives a reload or a closed window: it is kept in localStorage and revived
 * through its schema (an unreadable or outdated draft gives way to the defaults).
 */
import { builderDraftSchema, defaultDraft, type BuilderDraft } from './builder-draft';

const storageKey = 'cuelab.builderDraft';

/** The kept draft, or the defaults. */
export function readStoredDraft(): BuilderDraft {
  try {
    const text = window.localStorage.getItem(storageKey);
    if (!text) return defaultDraft();
    const parsed = builderDraftSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : defaultDraft();
  } catch {
    return defaultDraft();
  }
}

/** Keeps the draft for the next launch. */
export function storeDraft(draft: BuilderDraft): void {
  try {
    window.localStorage.setItem(storageKey, JSON.stringify(draft));
  } catch {
    // Storage can be full or disabled; the draft then lasts for this page only.
  }
}
