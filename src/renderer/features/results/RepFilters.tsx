/** The reps workbench's filters and search box; every control is a labelled native field. */
import type { LabRequest, LabResponse } from '../../../shared/lab-api';

type Request = LabRequest<'queryReps'>;

/** The filters as the workbench holds them (absent or '' = any). */
export interface RepFilterValues {
  judgeId?: string;
  dataset?: string;
  conditionKey?: string;
  direction?: Request['direction'];
  verdict?: Request['verdict'];
  flipped?: Request['flipped'];
  mechanism?: string;
  search?: string;
}

type Facets = LabResponse<'queryReps'>['facets'];

const FIXED = {
  direction: ['severity', 'leniency', 'uncued'],
  verdict: ['pass', 'fail', 'none'],
  flipped: ['harmful', 'helpful', 'any', 'no'],
} as const;

/** How a value reads in its menu where the raw value would be unclear ("any" is no filter). */
const OPTION_LABELS: Record<string, string> = {
  any: 'harmful or helpful',
  no: 'not flipped',
  none: 'no verdict',
};

function Choice({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (value: string | undefined) => void;
}) {
  // A value from the clicked mark stays selectable even before the facets arrive.
  const shown = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <label className="rep-filter">
      <span>{label}</span>
      <select value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">any</option>
        {shown.map((option) => (
          <option key={option} value={option}>
            {OPTION_LABELS[option] ?? option}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Filter menus from the study's facets, and the transcript search. */
export function RepFilters({
  values,
  facets,
  onChange,
}: {
  values: RepFilterValues;
  facets: Facets | undefined;
  onChange: (values: RepFilterValues) => void;
}) {
  const set = (key: keyof RepFilterValues) => (value: string | undefined) =>
    onChange({ ...values, [key]: value });
  const menus: [string, keyof RepFilterValues, readonly string[]][] = [
    ['Judge', 'judgeId', facets?.judges ?? []],
    ['Dataset', 'dataset', facets?.datasets ?? []],
    ['Condition', 'conditionKey', facets?.conditions ?? []],
    ['Direction', 'direction', FIXED.direction],
    ['Verdict', 'verdict', FIXED.verdict],
    ['Flipped', 'flipped', FIXED.flipped],
    ['Mechanism', 'mechanism', facets?.mechanisms ?? []],
  ];
  return (
    <div className="rep-filters" role="search" aria-label="Filter and search reps">
      <label className="rep-filter rep-search">
        <span>Search transcripts and rationales</span>
        <input
          type="search"
          value={values.search ?? ''}
          placeholder="a word, a file name, a phrase of the cue…"
          maxLength={200}
          onChange={(event) => set('search')(event.target.value || undefined)}
        />
      </label>
      {menus.map(([label, key, options]) => (
        <Choice key={key} label={label} value={values[key]} options={options} onChange={set(key)} />
      ))}
    </div>
  );
}
