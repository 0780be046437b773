import { useState } from 'react';
import './controls.css';

/** Props of a labelled number input. */
export interface NumberFieldProps {
  label: string;
  /** The committed value; null when the field is optional and empty. */
  value: number | null;
  /** Called with each valid value while typing (null when an optional field is cleared). */
  onChange: (value: number | null) => void;
  min?: number;
  max?: number;
  step?: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** An empty field is a valid value (null). */
  optional?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** Extra class on the label, e.g. a width. */
  className?: string;
}

/**
 * A number input that lets a person type freely: the text is kept as typed, only valid
 * numbers are committed, and leaving the field shows the committed value again (so clearing
 * "3" to type "5" never turns into "15").
 */
export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step,
  integer,
  optional,
  placeholder,
  disabled,
  className,
}: NumberFieldProps) {
  const [text, setText] = useState<string | null>(null);
  const accept = (raw: string) => {
    setText(raw);
    if (raw.trim() === '') {
      if (optional) onChange(null);
      return;
    }
    const number = Number(raw);
    const valid =
      Number.isFinite(number) &&
      (!integer || Number.isInteger(number)) &&
      (min === undefined || number >= min) &&
      (max === undefined || number <= max);
    if (valid) onChange(number);
  };
  return (
    <label className={className ? `field ${className}` : 'field'}>
      <span className="field-label">{label}</span>
      <input
        className="input"
        type="number"
        min={min}
        max={max}
        step={step ?? (integer ? 1 : 'any')}
        placeholder={placeholder}
        disabled={disabled}
        value={text ?? (value === null ? '' : String(value))}
        onChange={(event) => accept(event.target.value)}
        onBlur={() => setText(null)}
      />
    </label>
  );
}
