/**
 * LabApi handlers for replay and mechanisms: the pair view is built from the metajudge module
 * and reduced to what the window shows; the blind variant carries no label of any kind.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildBundle, bundleText, openBundle } from '../export';
import {
  classifyStudy,
  loadFlipPairView,
  flipsWithLabels,
  labellingQueue,
  saveHumanLabel,
  type RunRecord,
} from '../metajudge';
import { type Store } from '../store';
import { labelsForRep } from '../store/faces/labels';
import { jobStudyOfRep } from '../store/faces/reps';
import type { LabHandlers } from './handlers';

type MechanismHandlers = Pick<
  LabHandlers,
  | 'listFlips'
  | 'loadFlipPair'
  | 'labellingQueue'
  | 'saveHumanLabel'
  | 'classifyFlips'
  | 'exportBundle'
  | 'openBundle'
>;

/** A stored run as the window reads it (Replay, the workbench). */
export function runView(run: RunRecord) {
  const verdictStep = run.steps.find((step) => step.kind === 'verdict');
  const confidence =
    verdictStep && typeof verdictStep.fields.confidence === 'number'
      ? verdictStep.fields.confidence
      : null;
  return {
    repId: run.repId,
    verdict: run.verdict,
    rationale: run.rationale,
    calls: run.calls.map((call) => ({ ...call })),
    prompt: run.prompt,
    cue: run.cue,
    confidence,
  };
}

/** The replay and mechanism handlers; `keys` is every key the engine holds (for redaction). */
export function mechanismHandlers(
  store: Store,
  onChanged: (studyId: string) => void,
  keys: () => Readonly<Record<string, string | undefined>> = () => process.env,
): MechanismHandlers {
  return {
    listFlips: ({ studyId }) =>
      flipsWithLabels(store, studyId).map(
        ({ labels, twins: _twins, studyId: _study, ...flip }) => ({
          ...flip,
          classifierLabels: Object.fromEntries(
            Object.entries(labels)
              .filter(([source]) => !source.startsWith('human:') && source !== 'truth')
              .map(([source, entry]) => [source, entry.label]),
          ),
        }),
      ),
    loadFlipPair: ({ repId, blind }) => {
      const view = loadFlipPairView(store, repId);
      const { twins: _twins, studyId: _studyId, ...flip } = view.flip;
      const sharedCued = view.alignment
        .filter((row) => row.baseline !== null && row.cued !== null)
        .map((row) => row.cued as number);
      const divergenceRow = view.alignment.findIndex(
        (row) => row.baseline === null || row.cued === null,
      );
      const labels = blind
        ? null
        : Object.fromEntries(
            labelsForRep(store, repId)
              .filter((label) => !label.source.startsWith('human:'))
              .map((label) => [label.source, label.label]),
          );
      return {
        flip,
        baseline: runView(view.baseline),
        cued: runView(view.cued),
        alignment: view.alignment,
        diff: {
          divergenceRow: divergenceRow < 0 ? null : divergenceRow,
          divergenceIndex: view.diff.divergenceIndex,
          unsupportedClaims: blind ? [] : view.diff.unsupportedClaims.map((claim) => claim.text),
          skippedChecks: view.diff.skippedChecks.map((check) => check.index),
          sharedCued,
        },
        labels,
      };
    },
    labellingQueue: ({ studyId, annotator, kind }) =>
      labellingQueue(store, studyId, annotator, kind),
    saveHumanLabel: (input) => {
      saveHumanLabel(store, {
        repId: input.repId,
        annotator: input.annotator,
        label: input.label,
        ...(input.subMode ? { subMode: input.subMode } : {}),
        ...(input.rationale ? { rationale: input.rationale } : {}),
      });
      const study = jobStudyOfRep(store, input.repId);
      if (study) onChanged(study);
      return { saved: true };
    },
    exportBundle: ({ studyId }) => {
      // Every key the engine holds (session keys too) is redacted, not only process.env's.
      const bundle = buildBundle(store, studyId);
      const { text, redacted } = bundleText(bundle, keys());
      const data = gzipSync(Buffer.from(text, 'utf8'));
      return {
        fileName: `cuelab-${studyId.slice(0, 8)}.cuelab-bundle.json.gz`,
        base64: data.toString('base64'),
        bytes: data.length,
        reps: bundle.tables.reps.length,
        labels: bundle.tables.labels.length,
        redacted,
      };
    },
    openBundle: ({ base64, path, replace }) => {
      const open = (file: string) => {
        const summary = openBundle(store, file, replace ? { replace } : {});
        onChanged(summary.studyId);
        return {
          studyId: summary.studyId,
          name: summary.name,
          reps: summary.reps,
          labels: summary.labels,
          replaced: summary.replaced,
          suiteCreated: summary.suiteCreated,
          itemsAdded: summary.itemsAdded,
        };
      };
      // A path (the CLI, the desktop shell, a streamed upload's temporary file) opens as is.
      if (path !== undefined) return open(path);
      const folder = mkdtempSync(join(tmpdir(), 'cuelab-bundle-'));
      try {
        const file = join(folder, 'bundle.json.gz');
        writeFileSync(file, Buffer.from(base64 ?? '', 'base64'));
        return open(file);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    classifyFlips: async ({ studyId }) => {
      const summary = await classifyStudy(store, studyId);
      onChanged(studyId);
      return { flips: summary.flips, harmful: summary.harmful, helpful: summary.helpful };
    },
  };
}
