/**
 * LabApi handlers for flips and mechanisms (lab-api/mechanisms.ts): the replay list, the pair
 * view built from the metajudge module and reduced to what the window shows (the blind variant
 * carries no label of any kind), and classifying a study's flips for the window's Classify
 * button and `cuelab classify` alike.
 */
import {
  classifyStudy,
  flipsWithLabels,
  loadFlipPairView,
  mechanismValidation,
  parseEnsembleConfig,
  type RunRecord,
} from '../metajudge';
import { labelsForRep } from '../store/faces/labels';
import { readStudyFlags } from '../store/faces/studies';
import type { DomainHandlers, HandlerContext } from './handlers';

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
    reasoning: run.reasoning.map((entry) => ({ ...entry })),
  };
}

/** The mechanism handlers. */
export function mechanismHandlers(
  context: Pick<HandlerContext, 'store' | 'secrets' | 'publish' | 'onStudyChanged'>,
): DomainHandlers<'listFlips' | 'loadFlipPair' | 'classifyStudy'> {
  const { store } = context;
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
    classifyStudy: async ({ studyId, ensemble, votersFile, force }) => {
      const { simulated } = readStudyFlags(store, studyId);
      // A voters file is the user's input: the engine checks it like any other request.
      const config =
        ensemble === undefined
          ? undefined
          : parseEnsembleConfig(ensemble, votersFile ?? 'the voters file');
      const summary = await classifyStudy(store, studyId, {
        ...(config ? { ensemble: config } : {}),
        env: context.secrets.env(),
        force: force ?? false,
        onProgress: (done, total) =>
          context.publish({ stream: 'classify.progress', data: { studyId, done, total } }),
      });
      context.onStudyChanged(studyId);
      const validation = summary.truth ? mechanismValidation(store, studyId) : null;
      return {
        studyId,
        simulated,
        summary,
        validation: validation
          ? { accuracy: validation.accuracy, attributable: validation.attributable }
          : null,
      };
    },
  };
}
