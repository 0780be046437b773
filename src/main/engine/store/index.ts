/**
 * The face of `store/` itself: opening the workspace database, transactions, reading its JSON
 * columns and naming its failures. Each aggregate has its own face in faces/ (jobs, reps,
 * studies, suites, labels, bundles, machine), so a caller names the part of the store it uses.
 */
export { latestVersion, openStore } from './database';
export type { Store } from './database';
export { inTransaction } from './transaction';
export { withCommitCheck } from './checked-commits';
export { databaseRevision } from './revision';
export { describeStorageFailure, isStorageFailure } from './write-errors';
export { namedStoreDamage } from './store-damage';
export { packText } from './text-blobs';
