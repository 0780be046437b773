/**
 * The runner's real dependencies for a workspace: environments from the provisioner (Docker
 * or the snapshot backend), model providers from the judges' settings (one client per judge,
 * keys from the environment), the synthetic judge per rep, the workspace's temperature memory.
 */
import { dirname } from 'node:path';
import type { StudyJudge } from '../../../shared/study-spec';
import {
  checkDockerHealth,
  DockerHostPool,
  liveWebFor,
  provisionTrajectoryOnly,
} from '../environments';
import {
  createProvider,
  DEFAULT_API_KEY_ENV,
  modelSettingsSchema,
  requireTrustedEndpoint,
  trustFromEnv,
  warmProviderThread,
  type EndpointTrust,
  type ModelProvider,
} from '../providers';
import { recordImageBuild } from '../store/faces/machine';
import { hashString } from '../random';
import { redactingProvider } from '../redaction';
import { type Store } from '../store';
import { listDockerHosts, workspaceTemperaturePolicy } from '../store/faces/machine';
import type { JudgeContext, JudgeHandle } from './execute';
import { loadStudy } from './load-study';
import type { RunnerDeps } from './runner';
import { syntheticJudgeFor } from './synthetic-judge';
import { isSimulatedProvider } from '../../../shared/catalogue/providers';

/** Options for `workspaceRunnerDeps`. */
export interface WorkspaceDepsOptions {
  /** Where keys come from; a function is asked at every provider creation (session keys). */
  env?:
    | Readonly<Record<string, string | undefined>>
    | (() => Readonly<Record<string, string | undefined>>);
  onProvisionProgress?: (line: string) => void;
  /**
   * Endpoints and key variables the user allowed (endpoint-trust.ts); asked at every provider
   * creation. Default: what the user's own environment grants, nothing from the spec.
   */
  trust?: EndpointTrust | (() => EndpointTrust);
}

/**
 * Builds a model provider for a study judge (not synthetic); refuses, before any request, an
 * endpoint or key variable the user has not allowed.
 */
export function providerForJudge(
  judge: StudyJudge,
  env: Readonly<Record<string, string | undefined>>,
  trust: EndpointTrust = trustFromEnv(process.env),
): ModelProvider {
  requireTrustedEndpoint(judge, trust);
  const settings = modelSettingsSchema.parse({
    provider: judge.provider,
    model: judge.model,
    ...(judge.baseUrl ? { baseUrl: judge.baseUrl } : {}),
    ...(judge.apiKeyEnv ? { apiKeyEnv: judge.apiKeyEnv } : {}),
    ...(judge.temperature === undefined ? {} : { temperature: judge.temperature }),
    ...(judge.maxTokens ? { maxTokens: judge.maxTokens } : {}),
    ...(judge.timeoutMs ? { timeoutMs: judge.timeoutMs } : {}),
    ...(judge.dialect ? { dialect: judge.dialect } : {}),
  });
  return createProvider(settings, env);
}

/** The runner dependencies of a workspace store, and the Docker hosts its reps run on. */
export function workspaceRunnerDeps(
  store: Store,
  options: WorkspaceDepsOptions = {},
): RunnerDeps & { hostPool: DockerHostPool } {
  const envNow = () =>
    typeof options.env === 'function' ? options.env() : (options.env ?? process.env);
  const providers = new Map<string, ModelProvider>();
  const hostPool = new DockerHostPool(listDockerHosts(store), {
    prewarm: true,
    keepSnapshotsMs: 10_000,
    ...(options.onProvisionProgress ? { onProgress: options.onProvisionProgress } : {}),
  });
  if (!hostPool.localOnly) hostPool.start();
  return {
    store,
    hostPool,
    warmContainers: hostPool.warm,
    loadStudy: (studyId) => {
      const study = loadStudy(store, studyId);
      // Its model calls will run on the provider thread: start it while the first reps provision.
      if (study.spec.judges.some((judge) => !isSimulatedProvider(judge.provider)))
        warmProviderThread();
      return study;
    },
    provision: async (item, signal, context) => {
      if (context.trajectoryOnly) return provisionTrajectoryOnly();
      const trust = typeof options.trust === 'function' ? options.trust() : options.trust;
      // Off unless the user's own environment turns it on (never a suite or spec).
      const live = liveWebFor(item.environment, envNow(), trust ?? trustFromEnv(process.env));
      const provisioned = await hostPool.provision(item.environment, item, signal, {
        owner: { workspace: dirname(store.path), study: context.studyId },
        // Measured here, so the estimate counts builds still to come (store/image-builds.ts).
        onImageBuilt: (seconds) => recordImageBuild(store, item, seconds),
        ...(live ? { webBackend: live.backend } : {}),
      });
      return live ? { ...provisioned, webRecording: live.recording } : provisioned;
    },
    judgeFor(context: JudgeContext): JudgeHandle {
      const { judge } = context;
      if (isSimulatedProvider(judge.provider)) return syntheticJudgeFor(context);
      const env = envNow();
      // A key handed over later (settings) makes a new client; the old one is dropped.
      const keyName = judge.apiKeyEnv ?? DEFAULT_API_KEY_ENV[judge.provider] ?? '';
      const key = `${JSON.stringify(judge)}\u0000${hashString(env[keyName] ?? '')}`;
      let provider = providers.get(key);
      if (!provider) {
        const trust = typeof options.trust === 'function' ? options.trust() : options.trust;
        // Keys a provider echoes in an error are redacted before anything stores it (#7).
        provider = redactingProvider(
          providerForJudge(judge, env, trust ?? trustFromEnv(process.env)),
          envNow,
        );
        providers.set(key, provider);
      }
      return { provider, providerKind: judge.provider, simulated: false };
    },
    temperaturePolicy: workspaceTemperaturePolicy(store),
    // The local engine's health pauses its studies; a pool of hosts routes around a dead one.
    dockerHealth: async () =>
      hostPool.localOnly ? checkDockerHealth() : { up: true, version: 'pool' },
  };
}
