/**
 * LabApi handlers for studies and results: builder estimates, creating and controlling
 * studies, progress, report tables, the reps behind a chart cell.
 */
import { studySpecSchema, type StudySpec } from '../../../shared/study-spec';
import { EngineError } from '../errors';
import {
  combineTrust,
  endpointNeedingConsent,
  endpointProblem,
  type EndpointTrust,
} from '../providers';
import { formatCsv, isTableName, reportTable, type ReportTable } from '../reports';
import {
  createStudy,
  estimateStudy,
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
import { specNeedsDocker } from '../environments';
import { syntheticPower } from '../simulation';
import { type Store } from '../store';
import { listReps } from '../store/faces/reps';
import { listSuiteItems } from '../store/faces/suites';
import { ensureSuite, resourcesDir } from '../suites';
import { join } from 'node:path';
import type { LabHandlers } from './handlers';
import type { EnvironmentService } from './environment-service';

/** What the study handlers need from the engine. */
export interface StudyHandlerContext {
  store: Store;
  environment: EnvironmentService;
  env: () => Readonly<Record<string, string | undefined>>;
  /** What the user allowed so far (their environment plus endpoints confirmed this session). */
  trust: () => EndpointTrust;
  /** Records endpoints the user confirmed in the window (createStudy's trustedEndpoints). */
  trustEndpoints: (endpoints: readonly string[]) => void;
  /** Called after a study is created or controlled (wakes the runner, publishes progress). */
  onStudyChanged: (studyId: string) => void;
}

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

function table(store: Store, studyId: string, name: string): ReportTable {
  if (!isTableName(name)) {
    throw new EngineError('bad_request', `There is no report table "${name}".`);
  }
  return reportTable(store, studyId, name);
}

/** A report table as the contract carries it (plain arrays, no study header). */
function toContract(report: ReportTable) {
  return {
    name: report.name,
    title: report.title,
    columns: report.columns.map((column) => ({ ...column })),
    rows: report.rows.map((row) => ({ ...row })),
    notes: [...report.notes],
    simulated: report.simulated,
    reps: report.reps,
  };
}

type StudyHandlers = Pick<
  LabHandlers,
  | 'listSuiteItems'
  | 'estimateStudy'
  | 'createStudy'
  | 'getStudySpec'
  | 'getDemoSpec'
  | 'studyProgress'
  | 'controlStudy'
  | 'reportTable'
  | 'reportCsv'
  | 'listReps'
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

/** The study and results handlers. */
export function studyHandlers(context: StudyHandlerContext): StudyHandlers {
  const { store } = context;
  return {
    listSuiteItems: ({ suiteId }) =>
      (suiteId ? listSuiteItems(store, suiteId) : []).map((item) => ({
        id: item.id,
        dataset: item.dataset,
        substrate: item.substrate,
        gold: item.gold ?? null,
        dimensions: item.dimensions,
        taxonomy: item.taxonomy ?? null,
        needsDocker: specNeedsDocker(item.environment),
        note: item.note ?? null,
      })),
    estimateStudy: async ({ spec: raw }) => {
      const spec = parseSpec(raw);
      const { items } = ensureSuite(store, spec.suite);
      const status = await context.environment.status();
      const estimate = estimateStudy(store, spec, items, {
        env: context.env(),
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
        const problem = endpointProblem(judge, trust);
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
    studyProgress: ({ studyId }) => studyProgress(store, studyId),
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
    reportTable: ({ studyId, table: name }) => toContract(table(store, studyId, name)),
    reportCsv: ({ studyId, table: name }) => ({
      csv: formatCsv(table(store, studyId, name)),
      fileName: `cuelab-${studyId.slice(0, 8)}-${name}.csv`,
    }),
    listReps: (request) => listReps(store, request),
  };
}
