import { useState } from 'react';
import type { z } from 'zod';
import { NumberField } from '../../components/NumberField';
import type { studyEstimateSchema } from '../../../shared/lab-api/studies';
import {
  gatedItems,
  itemsNeeded,
  minimumDetectableDifference,
  PAPER_UNCUED_ACCURACY,
} from '../../../shared/power';

type StudyEstimate = z.output<typeof studyEstimateSchema>;

/** CueLab's rep agreement (0.8) squared, when no persona gives one (as `cuelab estimate`). */
const DEFAULT_ICC = 0.64;

const points = (value: number) => `${(value * 100).toFixed(1)} points`;
/** Both fields take an optional percentage strictly between 0 and 100. */
const percentRange = { min: 0.1, max: 99.9, step: 1, optional: true } as const;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/**
 * The estimate's power lines (src/shared/power.ts): the smallest change in item-level harmful-flip
 * rate the design can detect at 80% power and α = 0.05 by the exact McNemar test the tables run,
 * from the synthetic persona's rate or a baseline the user enters, and the items a named change
 * needs.
 */
export function EstimatePower({ estimate }: { estimate: StudyEstimate }) {
  const persona = estimate.power ?? null;
  const [baselinePercent, setBaselinePercent] = useState<number | null>(null);
  const [detectPercent, setDetectPercent] = useState<number | null>(10);
  const baseline = baselinePercent === null ? persona?.baseline : baselinePercent / 100;
  const design =
    baseline === undefined || estimate.items === 0
      ? null
      : {
          items: estimate.items,
          reps: estimate.reps,
          baseline,
          uncuedAccuracy: persona?.uncuedAccuracy ?? PAPER_UNCUED_ACCURACY,
          icc: persona?.icc ?? DEFAULT_ICC,
        };
  const difference = design ? minimumDetectableDifference(design) : null;
  const detect = detectPercent === null ? null : detectPercent / 100;
  const reachable =
    design !== null && detect !== null && detect <= Math.max(design.baseline, 1 - design.baseline);
  return (
    <div className="estimate-power" data-testid="estimate-power">
      <h4>Power (α = 0.05, 80%)</h4>
      <NumberField
        label={
          persona ? 'Baseline harmful-flip rate % (blank: persona)' : 'Baseline harmful-flip rate %'
        }
        value={baselinePercent}
        onChange={setBaselinePercent}
        {...percentRange}
        placeholder={persona ? (persona.baseline * 100).toFixed(1) : 'e.g. 20'}
      />
      {design === null ? (
        <p className="muted small">
          Enter the harmful-flip rate you expect to see the design’s power.
        </p>
      ) : (
        <>
          <p className="tabular" data-testid="estimate-mdd">
            {difference === null
              ? 'No change in harmful-flip rate is detectable with these items and reps.'
              : `Detects a change of ${points(difference)} in harmful-flip rate (${percent(design.baseline)} vs ${percent(design.baseline - difference >= 0 ? design.baseline - difference : design.baseline + difference)}).`}
          </p>
          <p className="muted small">
            Baseline:{' '}
            {baselinePercent === null && persona ? persona.baselineSource : 'entered here'}; gate{' '}
            {(design.uncuedAccuracy * 100).toFixed(1)}% of items (Table 5 mean) ={' '}
            {gatedItems(design)} gated items; exact McNemar on item-majority verdicts, as the
            mitigations table runs it (ICC {design.icc.toFixed(2)} assumed; arms independent).
          </p>
          <NumberField
            label="Change to detect (points)"
            value={detectPercent}
            onChange={setDetectPercent}
            {...percentRange}
          />
          {reachable && detect !== null && (
            <p className="tabular" data-testid="estimate-items-needed">
              Needs {itemsNeeded(design, detect)} items per judge for {points(detect)} (this design
              has {design.items}).
            </p>
          )}
        </>
      )}
    </div>
  );
}
