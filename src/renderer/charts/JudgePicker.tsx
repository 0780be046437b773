/** A compact judge choice above a figure ('all' reads "All judges (pooled)"). */
import { useId } from 'react';

/** Props of the picker. */
export interface JudgePickerProps {
  judges: string[];
  value: string | null;
  onChange: (judge: string) => void;
  label?: string;
}

/** The picker; hidden when there is nothing to choose. */
export function JudgePicker({ judges, value, onChange, label = 'Judge' }: JudgePickerProps) {
  const id = useId();
  if (judges.length < 2) return null;
  return (
    <label className="chart-picker" htmlFor={id}>
      <span>{label}</span>
      <select id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
        {judges.map((judge) => (
          <option key={judge} value={judge}>
            {judge === 'all' ? 'All judges (pooled)' : judge}
          </option>
        ))}
      </select>
    </label>
  );
}
