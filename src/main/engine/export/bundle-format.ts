/**
 * The study bundle (ARCHITECTURE.md `export`: "a study bundle (spec, prompts, transcripts,
 * results) that another machine can open and replay offline"): one gzipped JSON file holding a
 * study's rows from every table that describes it, so opening it reproduces the study in
 * another workspace without a network, a model or Docker. Rows are stored table by table, as
 * SQLite holds them (TEXT, INTEGER, REAL or NULL), which keeps the format a plain mirror of the
 * migrations: the bundle records the schema version it was written at.
 */
import { z } from 'zod';

/** The `format` field of every bundle. */
export const BUNDLE_FORMAT = 'cuelab-study-bundle';

/** Bumped when the bundle's own layout (not the schema) changes. */
export const BUNDLE_VERSION = 1;

/** One row: column → value. */
export const bundleRowSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

/** A row as stored in a bundle. */
export type BundleRow = z.output<typeof bundleRowSchema>;

const rows = z.array(bundleRowSchema);

/**
 * The tables a bundle carries, in the order opening inserts them (parents first). `suite*`
 * hold the study's suite, its items that the study judged, and its taxonomies.
 */
export const BUNDLE_TABLES = {
  suites: 'suites',
  suiteItems: 'suite_items',
  suiteTaxonomies: 'suite_taxonomies',
  studies: 'studies',
  studyItems: 'study_items',
  studyConditions: 'study_conditions',
  studyMajorities: 'study_majorities',
  reps: 'judge_reps',
  messages: 'judge_messages',
  turns: 'judge_turns',
  toolCalls: 'judge_tool_calls',
  jobs: 'jobs',
  providerCalls: 'provider_calls',
  importedReps: 'imported_reps',
  annotators: 'annotators',
  labels: 'mechanism_labels',
  webRecordings: 'judge_rep_web',
  dimensionGold: 'dimension_gold',
} as const;

/** Tables added after the first bundles were written: a bundle without them opens with none. */
const LATER_TABLES: readonly BundleTableKey[] = ['webRecordings', 'dimensionGold'];

/** A key of BUNDLE_TABLES. */
export type BundleTableKey = keyof typeof BUNDLE_TABLES;

/** A whole bundle. */
export const studyBundleSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  /** The workspace schema version the rows were read at. */
  schemaVersion: z.number().int().min(1),
  cuelabVersion: z.string(),
  exportedAt: z.string(),
  studyId: z.string().min(1),
  /** Names of environment variables whose values were found and redacted. */
  redacted: z.array(z.string()).default([]),
  tables: z.strictObject(
    Object.fromEntries(
      Object.keys(BUNDLE_TABLES).map((key) => [
        key,
        LATER_TABLES.includes(key as BundleTableKey) ? rows.default([]) : rows,
      ]),
    ) as Record<BundleTableKey, typeof rows>,
  ),
});

/** A parsed bundle. */
export type StudyBundle = z.output<typeof studyBundleSchema>;
