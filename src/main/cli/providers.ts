/**
 * `cuelab providers check`: one tiny tool-using request to a judge's endpoint, reporting
 * whether tool calls work (and in which dialect), reasoning, prompt caching, latency and
 * price; the result is stored in the workspace, and a study refuses to launch against an
 * endpoint whose last check failed.
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { workspaceForProcess } from '../engine/engine';
import {
  checkProvider,
  combineTrust,
  formatProviderCheck,
  modelSettingsSchema,
  requireTrustedEndpoint,
  saveProviderCheck,
  trustFromEnv,
} from '../engine/machine';
import { exitCodes, UsageError, type CliCommand } from './command';

/** `cuelab providers check --provider P --model M [--base-url URL] …`. */
export const providersCommand: CliCommand = {
  name: 'providers',
  local: true,
  summary: 'Check a model endpoint: tool calls and dialect, reasoning, caching, latency, price',
  usage: `Usage: cuelab providers check --provider KIND --model MODEL [--base-url URL]
       [--api-key-env VAR] [--dialect auto|structured|hermes|json] [--workspace DIR] [--json]

Sends one tiny tool-using request (twice, to see the prompt cache) and reports whether the
model called the tool and in which dialect, whether reasoning came back, whether caching is
on, the latency, and the price per million tokens the cost column uses. The result is stored
in the workspace: a study will not launch against an endpoint whose last check failed.
Naming --base-url here is your consent to send the key to it. Exits 1 when the check fails.`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        provider: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
        dialect: { type: 'string' },
        workspace: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals[0] !== 'check' || positionals.length > 1)
      throw new UsageError('the only subcommand is: cuelab providers check');
    const parsed = modelSettingsSchema.safeParse({
      provider: values.provider,
      model: values.model,
      ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
      ...(values['api-key-env'] ? { apiKeyEnv: values['api-key-env'] } : {}),
      ...(values.dialect ? { dialect: values.dialect } : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`--${String(issue?.path[0] ?? 'provider')}: ${issue?.message ?? ''}`);
    }
    const settings = parsed.data;
    requireTrustedEndpoint(
      settings,
      combineTrust(trustFromEnv(process.env), {
        endpoints: settings.baseUrl ? [settings.baseUrl] : [],
        keyEnvNames: settings.apiKeyEnv ? [settings.apiKeyEnv] : [],
      }),
    );
    const check = await checkProvider(settings, process.env);
    const workspace = workspaceForProcess(values.workspace).path;
    mkdirSync(workspace, { recursive: true });
    saveProviderCheck(workspace, check);
    if (values.json) io.out(JSON.stringify(check, null, 2));
    else for (const line of formatProviderCheck(check)) io.out(line);
    return check.ok ? exitCodes.ok : exitCodes.failed;
  },
};
