import type { ReactNode } from 'react';
import './controls.css';

/** Props of a checkbox drawn as a chip. */
export interface ChipProps {
  /** The text on the chip (also its accessible name unless `ariaLabel` is given). */
  children: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** A count shown after the label, e.g. how many items a filter value matches. */
  count?: number;
  disabled?: boolean;
  /** Radio semantics inside a `role="radiogroup"` instead of a checkbox. */
  radio?: boolean;
  /** Groups radios so arrow keys move between them. */
  name?: string;
  /** Accessible name when the visible text is not enough. */
  ariaLabel?: string;
  title?: string;
}

/**
 * A compact on/off choice: a real checkbox (or radio) inside a label, so keyboard, screen
 * readers and tests see an ordinary form control.
 */
export function Chip({
  children,
  checked,
  onChange,
  count,
  disabled,
  radio,
  name,
  ariaLabel,
  title,
}: ChipProps) {
  return (
    <label className="chip" data-checked={checked} data-disabled={disabled} title={title}>
      <input
        type={radio ? 'radio' : 'checkbox'}
        name={name}
        checked={checked}
        disabled={disabled}
        aria-label={ariaLabel}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="chip-label">{children}</span>
      {count !== undefined && <span className="chip-count">{count}</span>}
    </label>
  );
}
