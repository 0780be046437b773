/**
 * Wrapped figure text: one `<text>` with a `<tspan>` per line, so a long name stays one label
 * (one hover title, one box) while it takes as many lines as it needs. A wrapped label keeps
 * its whole text in `data-label`, so a check can tell where its lines were broken.
 */
import { lineHeight, wrapText } from './text-layout';

/** What a wrapped label shows and where its first line's baseline sits. */
export interface TextLinesProps {
  x: number;
  y: number;
  text: string;
  /** Width to wrap at. */
  maxWidth: number;
  fontSize: number;
  fontWeight?: number;
  fill: string;
  anchor?: 'start' | 'middle' | 'end';
  /** Where `y` is: the first line's baseline, or the middle of the block. */
  align?: 'top' | 'middle' | 'bottom';
  fontStyle?: string;
}

/** The wrapped lines of one label. */
export function TextLines(props: TextLinesProps) {
  const { x, text, maxWidth, fontSize, fontWeight = 400, fill, anchor = 'start' } = props;
  const lines = wrapText(text, maxWidth, fontSize, fontWeight);
  const step = lineHeight(fontSize);
  const block = (lines.length - 1) * step;
  const shift = props.align === 'middle' ? block / 2 : props.align === 'bottom' ? block : 0;
  return (
    <text
      x={x}
      y={props.y - shift}
      fontSize={fontSize}
      fontWeight={fontWeight === 400 ? undefined : fontWeight}
      fontStyle={props.fontStyle}
      fill={fill}
      textAnchor={anchor}
      data-label={lines.length > 1 ? text : undefined}
    >
      {lines.map((line, index) => (
        <tspan key={index} x={x} dy={index === 0 ? 0 : step}>
          {line}
        </tspan>
      ))}
    </text>
  );
}
