/**
 * Running one claimed job: load its item and condition, provision a fresh environment, build
 * the judge for the rep, run the rep with resumable provider calls, commit its record with the
 * job's completion in one transaction, dispose the environment on every path.
 */
import type { CueFamily } from '../../../shared/cue-family';
import type { CueSpec } from '../../../shared/cue-spec';
import type { RepCondition } from '../../../shared/rep-condition';
import { EngineError } from '../errors';
import type { StudyJudge, StudySpec } from '../../../shared/study-spec';
import type { SuiteItem, SuiteTaxonomy, ToolBudgetSetting } from '../../../shared/suite-format';
import type { ProvisionedEnvironment, WebRecording } from '../environments';
import { budgetForDataset, prepareRep, type Readout, modelCallFor, judgeRep } from '../judge';
import type {
  PriceTable,
  RetryOptions,
  TemperaturePolicy,
  ModelProvider,
  ReasoningOptions,
} from '../providers';
import type { Store } from '../store';
import type { ClaimedJob } from '../store/faces/jobs';
import { cachedModelCall, type CallCacheStats } from './call-cache';
import { commitRep } from './commit-rep';
import type { GroupCommit } from './group-commit';
import { baseConditionKey, uncuedRepeatKey, type StudyCondition } from './conditions';
import { isSimulatedProvider } from '../../../shared/catalogue/providers';
import { judgeKey } from '../../../shared/judge-names';

/** What a judge factory is told about the rep it builds a judge for. */
export interface JudgeContext {
  judge: StudyJudge;
  item: SuiteItem;
  readout: Readout;
  condition: RepCondition;
  /** Stable per rep: the synthetic judge seeds its draws with it. */
  repKey: string;
}

/** A judge for one rep. */
export interface JudgeHandle {
  provider: ModelProvider;
  providerKind: string;
  simulated: boolean;
  describeSimulation?: () => unknown;
}

/** A study loaded for running. */
export interface LoadedStudy {
  id: string;
  spec: StudySpec;
  conditions: Map<string, StudyCondition>;
  items: Map<string, SuiteItem>;
  taxonomies: SuiteTaxonomy[];
  suiteBudget: ToolBudgetSetting | undefined;
}

/** What executing a job needs from the outside. */
export interface ExecuteDeps {
  store: Store;
  /** A fresh environment for one rep of study `studyId` (its containers carry that label). */
  provision(
    item: SuiteItem,
    signal: AbortSignal,
    context: {
      studyId: string;
      /** The judge reads only the trajectory (synthetic, item without probes): no container. */
      trajectoryOnly?: boolean;
    },
  ): Promise<ProvisionedEnvironment & { webRecording?: WebRecording }>;
  judgeFor(context: JudgeContext): JudgeHandle;
  temperaturePolicy: TemperaturePolicy;
  priceTable?: PriceTable;
  retry?: Omit<RetryOptions, 'temperaturePolicy' | 'signal'>;
}

/** The stored rep and what it cost. */
export interface JobResult {
  repId: string;
  costUsd: number | null;
  calls: CallCacheStats;
}

/** The rep condition of a job. */
export function jobCondition(study: LoadedStudy, job: ClaimedJob): RepCondition {
  const condition = study.conditions.get(job.conditionKey);
  if (!condition)
    throw new EngineError('not_found', `Study ${study.id} has no condition "${job.conditionKey}".`);
  return {
    dimension: condition.dimension ?? study.spec.dimension,
    seed: study.spec.seed,
    mitigations: condition.mitigations,
    placement: condition.placement ?? 'system',
    ...(condition.cue ? { cue: condition.cue, direction: job.direction || 'severity' } : {}),
    ...(familyOf(study.spec, condition.cue) ?? {}),
  };
}

/** The study's own copy of a family cue's family, as a rep condition field. */
function familyOf(spec: StudySpec, cue: CueSpec | null): { cueFamily: CueFamily } | null {
  if (cue?.kind !== 'family') return null;
  const family = spec.cueFamilies?.find((candidate) => candidate.id === cue.family);
  return family ? { cueFamily: family } : null;
}

/** The judge's thinking / reasoning-effort settings, or undefined when it has none. */
function reasoningOf(judge: StudyJudge): ReasoningOptions | undefined {
  if (!judge.thinking && !judge.reasoningEffort) return undefined;
  return {
    ...(judge.thinking ? { thinking: judge.thinking } : {}),
    ...(judge.reasoningEffort ? { reasoningEffort: judge.reasoningEffort } : {}),
  };
}

/**
 * True when the judge reads only the item's trajectory: the synthetic judge decides an item
 * without probes from its trajectory and persona alone, so its rep needs no container.
 */
export function readsTrajectoryOnly(judge: StudyJudge, item: SuiteItem): boolean {
  return isSimulatedProvider(judge.provider) && !item.probes?.length;
}

/** Runs one job to a stored rep; throws when it cannot (the runner decides about retries). */
export async function executeJob(
  deps: ExecuteDeps,
  study: LoadedStudy,
  job: ClaimedJob,
  signal: AbortSignal,
  commit: {
    /** Completes the job inside the transaction that stores the rep; throws if the lease was lost. */
    complete?: (repId: string) => void;
    /** Stores the rep with the others landing in the same turn (group-commit.ts). */
    group?: GroupCommit;
  } = {},
): Promise<JobResult> {
  const item = study.items.get(job.itemId);
  // The study's rows decide both, so a retry would find them missing again (failures.ts).
  if (!item)
    throw new EngineError(
      'not_found',
      `Item ${job.itemId} is no longer in suite ${study.spec.suite}.`,
    );
  const judge = study.spec.judges.find((entry) => entry.id === job.judgeId);
  if (!judge)
    throw new EngineError('not_found', `Study ${study.id} has no judge "${job.judgeId}".`);
  const condition = jobCondition(study, job);
  // App. R: the soft budget applies per dataset family unless the study or suite sets one.
  const budget = budgetForDataset(
    item,
    study.spec.toolBudget ?? study.suiteBudget,
    study.spec.safety ?? {},
  );

  const environment = await deps.provision(item, signal, {
    studyId: study.id,
    trajectoryOnly: readsTrajectoryOnly(judge, item),
  });
  try {
    const prepared = prepareRep(item, study.taxonomies, condition, environment.environment, {
      providerKind: judge.provider,
      ...(judge.temperature === undefined ? {} : { temperature: judge.temperature }),
      ...(deps.priceTable ? { priceTable: deps.priceTable } : {}),
    });
    // Shared by a cued rep and its uncued twin of the same index: the synthetic judge draws
    // its own investigation from it, so the cue is the only difference between the two.
    // Independent of the study id, so the same spec and seed give the same transcripts. The
    // uncued repeat is a second run of the control, so its reps draw afresh. The judge's safe
    // key, not its name: a model id's `/` would blur the three parts.
    const repeat = baseConditionKey(job.conditionKey) === uncuedRepeatKey ? '/repeat' : '';
    const repKey = `${job.itemId}/${judgeKey(job.judgeId)}/${job.rep}${repeat}`;
    const handle = deps.judgeFor({
      judge,
      item,
      readout: prepared.input.readout,
      condition,
      repKey,
    });
    const temperature = isSimulatedProvider(judge.provider)
      ? undefined
      : (judge.temperature ?? 0.7);
    const reasoning = reasoningOf(judge);
    const base = {
      input: prepared.input,
      provider: handle.provider,
      providerKind: handle.providerKind,
      model: judge.model,
      ...(temperature === undefined ? {} : { temperature }),
      ...(judge.maxTokens ? { maxTokens: judge.maxTokens } : {}),
      ...(reasoning ? { reasoning } : {}),
      budget,
      temperaturePolicy: deps.temperaturePolicy,
      ...(deps.priceTable ? { priceTable: deps.priceTable } : {}),
      ...(deps.retry ? { retry: deps.retry } : {}),
      signal,
    };
    const cached = cachedModelCall(
      deps.store,
      job.id,
      modelCallFor({ ...base, condition: {}, suiteId: '' }),
    );
    const judged = await judgeRep({
      ...base,
      call: cached.call,
      ...(prepared.gate ? { gate: prepared.gate } : {}),
      condition: {
        ...prepared.record,
        conditionKey: job.conditionKey,
        judgeId: job.judgeId,
        rep: job.rep,
        budget,
        // Stored with each rep: what the provider was asked to do beyond the prompt.
        providerOptions: {
          maxTokens: judge.maxTokens ?? null,
          thinking: judge.thinking ?? null,
          reasoningEffort: judge.reasoningEffort ?? null,
        },
      },
      suiteId: study.spec.suite,
      studyId: study.id,
      simulated: handle.simulated,
      ...(handle.describeSimulation ? { describeSimulation: handle.describeSimulation } : {}),
    });
    // Stored before the environment is disposed, as the rep's last act, with its job's
    // completion and its web recording in the same transaction.
    const companions = {
      ...(environment.webRecording ? { webRecording: environment.webRecording } : {}),
      ...(commit.complete ? { completeJob: commit.complete } : {}),
    };
    const store = () => commitRep(deps.store, judged.record, companions);
    const repId = commit.group ? await commit.group.commit(store) : store();
    return { repId, costUsd: judged.transcript.totals.costUsd, calls: cached.stats };
  } finally {
    await environment.dispose();
  }
}
