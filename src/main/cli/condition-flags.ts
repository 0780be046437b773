/**
 * The flags that name a rep's condition and its item, shared by `cuelab prompt` and
 * `cuelab judge`. They reduce to a RepCondition, parsed by its schema like any other input.
 */
import { existsSync } from 'node:fs';
import { cueAxesSchema, type CueSpec } from '../../shared/cue-spec';
import { repConditionSchema, type RepCondition } from '../../shared/rep-condition';
import type { SuiteItem, SuiteTaxonomy, ToolBudgetSetting } from '../../shared/suite-format';
import type { Engine } from '../engine/engine';
import { UsageError } from './command';
import {
  builtinSuiteIds,
  ensureWorkspaceSuite,
  loadSuiteFile,
  workspaceSuiteItem,
} from '../engine/machine';

/** parseArgs options for the condition flags. */
export const conditionOptions = {
  workspace: { type: 'string' },
  suite: { type: 'string' },
  item: { type: 'string' },
  cue: { type: 'string' },
  'cue-axes': { type: 'string' },
  'cue-text': { type: 'string' },
  'cue-text-leniency': { type: 'string' },
  'cue-family': { type: 'string' },
  'cue-template': { type: 'string' },
  'cue-placebo': { type: 'boolean', default: false },
  direction: { type: 'string' },
  placement: { type: 'string' },
  mitigation: { type: 'string', multiple: true },
  dimension: { type: 'string' },
  category: { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

/** Help text for the condition flags. */
export const conditionUsage = `Item:
  --suite S            a suite id in the workspace, or a suite .json file
  --item ID            the item to judge
Condition (no cue flag = the uncued control):
  --cue PRESET         a cue preset: strong, strong-senior, strong-figures, weak,
                       table2-…, table3-…, table4-… (see README, "Cues")
  --cue-axes K=V,...   compose a cue from axes: framing=belief|compliance,
                       form=declarative|imperative, source=domain expert|reviewer|
                       unattributed|automated checker|prior LLM-judge,
                       decisiveness=definitely|likely|appears|might,
                       strength=strong|weak|placebo|null-source
  --cue-text TEXT      your own cue (severity wording); --cue-text-leniency TEXT
  --cue-family ID      a cue family (cuelab cues list); --cue-template N picks its
                       template (from 0), --cue-placebo its length-matched placebo
  --direction D        severity (asserts failure) or leniency (asserts success)
  --placement P        system (default), user, assistant, assistant-xN, assistant-at-K,
                       agent-final, agent-tool-output (the agent's own voice),
                       narration (a narration family's transform)
  --mitigation M       guard, cite-evidence, learned-skill, sufficiency-gate (repeatable)
  --dimension D        task_success (default), an App. G dimension, or error_attribution
  --category C         the category {cat} names in an error-attribution cue
  --seed N             study seed for scattered placements (default 17)
  --json               print JSON`;

type ConditionValues = {
  [K in keyof typeof conditionOptions]?: (typeof conditionOptions)[K] extends { multiple: true }
    ? string[]
    : (typeof conditionOptions)[K] extends { type: 'boolean' }
      ? boolean
      : string;
};

/** The condition the flags describe, validated. */
export function conditionFromFlags(values: ConditionValues): RepCondition {
  const cueFlags = [
    values.cue,
    values['cue-axes'],
    values['cue-text'],
    values['cue-family'],
  ].filter(Boolean);
  if (cueFlags.length > 1)
    throw new UsageError('use one of --cue, --cue-axes, --cue-text and --cue-family');
  if ((values['cue-template'] !== undefined || values['cue-placebo']) && !values['cue-family'])
    throw new UsageError('--cue-template and --cue-placebo go with --cue-family');
  let cue: CueSpec | undefined;
  if (values.cue) cue = { kind: 'preset', preset: values.cue };
  if (values['cue-axes']) cue = { kind: 'axes', axes: parseAxes(values['cue-axes']) };
  if (values['cue-text']) {
    cue = {
      kind: 'custom',
      severity: values['cue-text'],
      ...(values['cue-text-leniency'] ? { leniency: values['cue-text-leniency'] } : {}),
    };
  }
  if (values['cue-family']) {
    const template = values['cue-template'];
    if (template !== undefined && !/^\d{1,2}$/.test(template))
      throw new UsageError('--cue-template expects a template number (0, 1, …)');
    cue = {
      kind: 'family',
      family: values['cue-family'],
      ...(template === undefined ? {} : { template: Number(template) }),
      ...(values['cue-placebo'] ? { placebo: true } : {}),
    };
  }
  if (!cue && (values.direction || values.placement)) {
    throw new UsageError(
      '--direction and --placement need a cue (--cue, --cue-axes, --cue-text or --cue-family)',
    );
  }
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  const parsed = repConditionSchema.safeParse({
    ...(values.dimension ? { dimension: values.dimension } : {}),
    ...(cue ? { cue, direction: values.direction ?? 'severity' } : {}),
    ...(values.placement ? { placement: values.placement } : {}),
    mitigations: (values.mitigation ?? []).map((id) => ({ kind: 'builtin', id })),
    ...(seed === undefined ? {} : { seed }),
    ...(values.category ? { category: values.category } : {}),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${flagName(issue.path)}: ${issue.message}`,
    );
    throw new UsageError(problems.join('; '));
  }
  return parsed.data;
}

function parseAxes(text: string): Record<string, string> {
  const axes: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const [key, value] = pair.split('=').map((part) => part.trim());
    if (!key || !value) throw new UsageError(`--cue-axes expects KEY=VALUE pairs, not "${pair}"`);
    axes[key] = value;
  }
  const parsed = cueAxesSchema.safeParse(axes);
  if (!parsed.success) {
    throw new UsageError(
      `--cue-axes: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'axes'}: ${issue.message}`).join('; ')}`,
    );
  }
  return axes;
}

function flagName(path: PropertyKey[]): string {
  const [first] = path;
  const names: Record<string, string> = {
    mitigations: '--mitigation',
    seed: '--seed',
    direction: '--direction',
    placement: '--placement',
    dimension: '--dimension',
    cue: '--cue',
  };
  return names[String(first)] ?? String(first ?? 'condition');
}

/** The item the flags name, from the workspace or a suite file. */
export function itemFromFlags(
  engine: Engine,
  values: { suite?: string | undefined; item?: string | undefined },
): {
  suiteId: string;
  item: SuiteItem;
  taxonomies: SuiteTaxonomy[];
  toolBudget: ToolBudgetSetting | undefined;
} {
  if (!values.suite) throw new UsageError('name the suite with --suite');
  if (!values.item) throw new UsageError('name the item with --item');
  if (values.suite.endsWith('.json') && existsSync(values.suite)) {
    const suite = loadSuiteFile(values.suite);
    const item = suite.items.find((candidate) => candidate.id === values.item);
    if (!item) throw new UsageError(`${values.suite} has no item "${values.item}"`);
    return { suiteId: suite.id, item, taxonomies: suite.taxonomies, toolBudget: suite.toolBudget };
  }
  // A built-in suite is imported into the workspace on first use.
  if ((builtinSuiteIds as readonly string[]).includes(values.suite))
    ensureWorkspaceSuite(engine, values.suite);
  return { suiteId: values.suite, ...workspaceSuiteItem(engine, values.suite, values.item) };
}
