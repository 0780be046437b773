/**
 * LabApi handlers for studies (lab-api/studies.ts): listing and resolving them, builder
 * estimates, creating and controlling studies, progress.
 */
import { dirname, join } from 'node:path';
import { isSimulatedProvider } from '../../../shared/catalogue/providers';
import { studySpecSchema, type StudySpec } from '../../../shared/study-spec';
import { EngineError } from '../errors';
import {
  combineTrust,
  endpointNeedingConsent,
  endpointProblem,
  lastProviderCheck,
  type EndpointTrust,
} from '../providers';
import {
  createStudy,
  estimateStudy,
  resolveStudyId,
  retryFailedJobs,
  loadStudy,
  cancelStudy,
  pauseStudy,
  reopenStudy,
  resumeStudy,
  studyProgress,
  loadStudySpec,
  parseStudySpec,
  specProblems,
} from '../runner';
import { syntheticPower } from '../simulation';
import { listStudies, refuseDamagedStudy } from '../store/faces/studies';
import { ensureSuite, resourcesDir } from '../suites';
import type { DomainHandlers, HandlerContext } from './handlers';

function parseSpec(raw: unknown): StudySpec {
  const parsed = studySpecSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || '(spec)'}: ${issue.message}`,
    );
    throw new EngineError('bad_request', `The study spec is not valid: ${problems.join('; ')}`);
  }
  const semantic = specProblems(parsed.data).map(
    (problem) => `${problem.path.map(String).join('.')}: ${problem.message}`,
  );
  if (semantic.length)
    throw new EngineError('bad_request', `The study spec is not valid: ${semantic.join('; ')}`);
  return parsed.data;
}

type StudyHandlers = DomainHandlers<
  | 'listStudies'
  | 'resolveStudy'
  | 'estimateStudy'
  | 'createStudy'
  | 'getStudySpec'
  | 'getDemoSpec'
  | 'studyProgress'
  | 'controlStudy'
>;

/** One estimate warning per judge endpoint the user has not confirmed. */
function endpointWarnings(spec: StudySpec, trust: EndpointTrust) {
  return spec.judges.flatMap((judge) => {
    const endpoint = endpointNeedingConsent(judge, trust);
    const problem = endpointProblem(judge, trust);
    if (!problem) return [];
    return [
      {
        code: endpoint ? 'untrusted_endpoint' : 'untrusted_key_variable',
        message: `Judge ${judge.id}: ${problem}.`,
        ...(endpoint ? { endpoint } : {}),
      },
    ];
  });
}

/** Why a judge's endpoint may not run: its last connection check failed (check-store.ts). */
function failedCheck(workspaceDir: string, judge: StudySpec['judges'][number]): string | null {
  if (isSimulatedProvider(judge.provider)) return null;
  const check = lastProviderCheck(workspaceDir, judge);
  if (!check || check.ok) return null;
  return (
    `the connection check of ${judge.provider} ${judge.model}` +
    `${judge.baseUrl ? ` at ${judge.baseUrl}` : ''} failed (${check.checkedAt}): ${check.problem ?? 'no tool call'}. ` +
    'Fix the endpoint and run "cuelab providers check" again (or Settings → Check).'
  );
}

/** The study and results handlers. */
export function studyHandlers(
  context: Pick<
    HandlerContext,
    'store' | 'secrets' | 'environment' | 'trust' | 'trustEndpoints' | 'onStudyChanged'
  >,
): StudyHandlers {
  const { store } = context;
  return {
    listStudies: (request) => listStudies(store, request.limit),
    resolveStudy: ({ reference }) => ({ studyId: resolveStudyId(store, reference) }),
    estimateStudy: async ({ spec: raw }) => {
      const spec = parseSpec(raw);
      const { items } = ensureSuite(store, spec.suite);
      const status = await context.environment.status();
      const estimate = estimateStudy(store, spec, items, {
        env: context.secrets.env(),
        dockerAvailable: status.dockerAvailable,
        ...(status.fix ? { dockerFix: status.fix } : {}),
        baseImagePresent: status.baseImage.present,
      });
      // The window asks before launch about each endpoint listed here.
      return {
        ...estimate,
        warnings: [...estimate.warnings, ...endpointWarnings(spec, context.trust())],
        power: syntheticPower(spec, estimate.items),
      };
    },
    createStudy: ({ spec: raw, specFile, trustedEndpoints }) => {
      const spec = specFile ? parseStudySpec(specFile.text, specFile.name) : parseSpec(raw);
      const trust = combineTrust(context.trust(), {
        endpoints: trustedEndpoints ?? [],
        keyEnvNames: [],
      });
      const problems = spec.judges.flatMap((judge) => {
        const problem = endpointProblem(judge, trust) ?? failedCheck(dirname(store.path), judge);
        return problem ? [`judge ${judge.id}: ${problem}`] : [];
      });
      if (problems.length) throw new EngineError('bad_request', problems.join('\n'));
      context.trustEndpoints(trustedEndpoints ?? []);
      const { items } = ensureSuite(store, spec.suite);
      const studyId = createStudy(store, spec, items);
      context.onStudyChanged(studyId);
      const study = loadStudy(store, studyId);
      return {
        studyId,
        name: spec.name,
        judgeCount: spec.judges.length,
        reps: spec.reps,
        itemCount: study.items.size,
        conditionCount: study.conditions.size,
      };
    },
    getStudySpec: ({ studyId }) => loadStudy(store, studyId).spec,
    getDemoSpec: () => loadStudySpec(join(resourcesDir(), 'studies', 'demo.json')),
    studyProgress: ({ studyId }) => {
      refuseDamagedStudy(store, studyId);
      return studyProgress(store, studyId);
    },
    controlStudy: ({ studyId, action }) => {
      if (action === 'pause') pauseStudy(store, studyId);
      if (action === 'resume') resumeStudy(store, studyId);
      if (action === 'cancel') cancelStudy(store, studyId);
      if (action === 'retry-failed' && retryFailedJobs(store, studyId) > 0) {
        // A study that ended with failures is running again once its failed reps are requeued.
        reopenStudy(store, studyId);
      }
      context.onStudyChanged(studyId);
      return studyProgress(store, studyId);
    },
  };
}
