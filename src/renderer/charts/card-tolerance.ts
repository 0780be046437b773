/**
 * The report card's tolerance as the window keeps it: one number of percentage points, kept in
 * localStorage so it survives a reload and applies to every study's card (`cuelab report
 * --tolerance` is its CLI twin). A stored value that does not parse falls back to the default.
 */
import { useCallback, useState } from 'react';
import { DEFAULT_CARD_TOLERANCE_PP, parseCardTolerance } from '../../shared/card-tolerance';

const storageKey = 'cuelab.reportCard.tolerancePp';

function storedTolerance(): number {
  try {
    const stored = window.localStorage.getItem(storageKey);
    if (stored === null) return DEFAULT_CARD_TOLERANCE_PP;
    const parsed = parseCardTolerance(stored);
    return typeof parsed === 'number' ? parsed : DEFAULT_CARD_TOLERANCE_PP;
  } catch {
    return DEFAULT_CARD_TOLERANCE_PP;
  }
}

/** The tolerance and a setter that keeps it. */
export function useCardTolerance(): [number, (tolerancePp: number) => void] {
  const [tolerance, setTolerance] = useState(storedTolerance);
  const keep = useCallback((tolerancePp: number) => {
    setTolerance(tolerancePp);
    try {
      window.localStorage.setItem(storageKey, String(tolerancePp));
    } catch {
      // A window without storage still uses the value until it closes.
    }
  }, []);
  return [tolerance, keep];
}
