/**
 * Whether an import would store runs some other suite of the workspace already holds: the same
 * source file (sha256) and the same run inside it (instance). Importing a folder twice under
 * two names would otherwise make two suites of one set of runs, and a study over both would
 * count every run twice. Saving is refused unless asked (`--allow-duplicate`); a preview says it.
 */
import type { SuiteFile, SuiteItem } from '../../../shared/suite-format';
import type { Store } from '../store';
import { listSuiteItems, listSuites } from '../store/faces/suites';

function runKey(item: SuiteItem): string | undefined {
  const provenance = item.provenance;
  return provenance?.sha256 ? `${provenance.sha256}#${provenance.instance ?? ''}` : undefined;
}

/** One sentence per other imported suite holding some of `suite`'s runs, naming how many. */
export function duplicateSuites(store: Store, suite: SuiteFile): string[] {
  const wanted = new Set(suite.items.map(runKey).filter((key) => key !== undefined));
  if (wanted.size === 0) return [];
  const found: string[] = [];
  for (const other of listSuites(store)) {
    if (other.id === suite.id || other.origin !== 'imported') continue;
    const shared = listSuiteItems(store, other.id).filter((item) => {
      const key = runKey(item);
      return key !== undefined && wanted.has(key);
    }).length;
    if (shared > 0) {
      found.push(
        `${shared} of these ${suite.items.length} runs are already imported as suite ` +
          `${other.id} ("${other.name}"): this import duplicates suite ${other.id}`,
      );
    }
  }
  return found;
}
