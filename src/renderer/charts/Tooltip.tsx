/**
 * Hover read-outs: a chart keeps the hovered mark in local state and shows its numbers in an
 * HTML box over the figure (never part of an export).
 */
import { useCallback, useState, type MouseEvent, type ReactNode } from 'react';

/** What the tooltip shows and where, relative to the figure's top-left corner. */
export interface TooltipState {
  x: number;
  y: number;
  /** Open to the left of the pointer (near the right edge). */
  flip: boolean;
  /** A key naming the hovered mark (for highlighting it). */
  mark: string;
  content: ReactNode;
}

/** Tooltip state with show and hide handlers for SVG marks. */
export function useTooltip() {
  const [tooltip, setTooltip] = useState<TooltipState | null>(null);
  const show = useCallback((event: MouseEvent<SVGElement>, mark: string, content: ReactNode) => {
    const target = event.currentTarget;
    const svg = target instanceof SVGSVGElement ? target : target.ownerSVGElement;
    if (!svg) return;
    const box = svg.getBoundingClientRect();
    const x = event.clientX - box.left;
    setTooltip({ x, y: event.clientY - box.top, flip: x > box.width * 0.62, mark, content });
  }, []);
  const hide = useCallback(() => setTooltip(null), []);
  return { tooltip, show, hide };
}

/** The floating read-out. */
export function ChartTooltip({ state }: { state: TooltipState | null }) {
  if (!state) return null;
  return (
    <div
      className="chart-tooltip"
      role="tooltip"
      data-testid="chart-tooltip"
      style={{
        left: state.x,
        top: state.y,
        transform: `translate(${state.flip ? 'calc(-100% - 14px)' : '14px'}, -50%)`,
      }}
    >
      {state.content}
    </div>
  );
}

/** Rows of a tooltip: label, value. */
export function TooltipFacts({ title, facts }: { title: string; facts: [string, string][] }) {
  return (
    <>
      <div className="chart-tooltip-title">{title}</div>
      <dl className="chart-tooltip-facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
