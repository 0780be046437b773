/**
 * The width a figure is drawn at in the window: its preferred width, or less when its grid
 * cell is narrower (a 1024 px window), never under a journal's single column.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';
import { MIN_FIGURE_WIDTH } from './figure-frame';

/** Card border on each side, so the card (not only the figure) fits its cell. */
const cardBorders = 2;

/** Tracks the width of `cell`'s parent and fits `preferred` into it. */
export function useFigureWidth(cell: RefObject<HTMLElement | null>, preferred: number): number {
  const [available, setAvailable] = useState<number | null>(null);
  useLayoutEffect(() => {
    const parent = cell.current?.parentElement;
    if (!parent) return;
    const measure = () => setAvailable(Math.floor(parent.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(parent);
    return () => observer.disconnect();
  }, [cell]);
  if (available === null) return preferred;
  return Math.max(MIN_FIGURE_WIDTH, Math.min(preferred, available - cardBorders));
}
