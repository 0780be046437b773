/** The suites' face: a suite's items, taxonomies, settings and gold, and the suite list. */
export {
  getSuiteItem,
  getSuiteSettings,
  getSuiteTaxonomies,
  listSuiteItemIds,
  listSuiteItems,
  saveSuite,
  storedBuiltinVersion,
  suiteItemGold,
} from '../suite-items';
export { listSuites } from '../suites';
