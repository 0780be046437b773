/** The bundles' face: the rows a study bundle carries out of one workspace and into another. */
export {
  insertAnnotators,
  countBundleRows,
  insertBundleRows,
  iterateBundleRows,
  readBundleTables,
  readSuiteRows,
  repExists,
  studyName,
} from '../bundle-rows';
