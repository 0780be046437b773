/**
 * LabApi handlers for suites (lab-api/suites.ts): the window's listings, and behind
 * `cuelab suite list|show|import` the shipped suites are imported before a listing, items are
 * described as `suite show` prints them, and a CueLab suite file is validated (errors name the
 * user's own path) and stored.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SuiteItem } from '../../../shared/suite-format';
import { specNeedsDocker } from '../environments';
import { type Store } from '../store';
import { listSuiteItemIds, listSuiteItems, listSuites } from '../store/faces/suites';
import { builtinSuiteIds, describeSpec, ensureSuite, resourcesDir } from '../suites';
import type { DomainHandlers, HandlerContext } from './handlers';
import { inFilesWorker } from './file-work';

type SuiteHandlers = DomainHandlers<
  'listSuites' | 'listSuiteItems' | 'suiteCatalog' | 'describeSuite' | 'importSuiteFile'
>;

/** The suite handlers; answers name the workspace folder they are about. */
export function suiteHandlers(
  context: Pick<
    HandlerContext,
    'store' | 'workspace' | 'onSuiteSaved' | 'workers' | 'secrets' | 'publish'
  >,
): SuiteHandlers {
  const { store, onSuiteSaved } = context;
  const workspace = context.workspace.path;
  return {
    listSuites: () => listSuites(store),
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
    suiteCatalog: ({ suiteId }) => {
      importShippedSuites(store);
      return {
        workspace,
        suites: listSuites(store),
        itemIds: suiteId === undefined ? [] : listSuiteItemIds(store, suiteId),
      };
    },
    describeSuite: ({ suiteId }) => ({
      workspace,
      items: listSuiteItems(store, suiteId).map(describeItem),
    }),
    // Read, checked and stored on the files worker; the stored suite is published here.
    importSuiteFile: async ({ path, fileName }) => {
      const name = fileName ?? path;
      const saved = await inFilesWorker(context, 'importSuiteFile', { path, name });
      onSuiteSaved(saved.suiteId);
      return { workspace, ...saved };
    },
  };
}

/** Imports (or refreshes) the built-in suites this installation ships, so a listing shows them. */
function importShippedSuites(store: Store): void {
  for (const id of builtinSuiteIds) {
    let shipped: boolean;
    try {
      shipped = existsSync(join(resourcesDir(), 'suites', `${id}.json`));
    } catch {
      continue; // no resources folder (a bare engine build): nothing is shipped
    }
    if (shipped) ensureSuite(store, id);
  }
}

/** One item in a few lines, as `suite show` prints it. */
function describeItem(item: SuiteItem): string {
  const lines = [
    `${item.id}  gold ${item.gold ?? '-'}  ${item.trajectory.length} messages  ${item.dataset}/${item.substrate}`,
    `  environment: ${describeSpec(item)}`,
  ];
  const origin = item.provenance;
  if (origin) {
    lines.push(`  source: ${origin.source} (${origin.format}, sha256 ${origin.sha256})`);
    if (origin.agent) lines.push(`  agent: ${origin.agent}`);
    if (origin.flags?.length) lines.push(`  flags: ${origin.flags.join('; ')}`);
  }
  if (item.render) lines.push(`  tool outputs cut at: ${item.render.toolOutputLimit}`);
  if (item.note) lines.push(`  note: ${item.note}`);
  return lines.join('\n');
}
