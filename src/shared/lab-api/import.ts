/**
 * LabApi methods for importing other harnesses' work: the window previews what a folder or
 * file of runs would import (items, gold labels, what is skipped and why) and then stores it
 * as a suite; `cuelab import-results` stores another harness's per-rep verdicts as a study.
 */
import { z } from 'zod';
import { importFormats } from '../suite-format';

/** The container limits an item asks for; an absent one is the Docker backend's default. */
export const itemLimitsSchema = z.object({
  cpus: z.number().optional(),
  memoryMb: z.number().optional(),
  pids: z.number().optional(),
  /** Whether the judge's container gets a network (the user's cap must allow it). */
  network: z.boolean(),
  /** The disk the task asked for, MiB: shown only, Docker here gives no disk quota. */
  storageMb: z.number().optional(),
});

/** One run that became an item. */
export const importedRunSchema = z.object({
  id: z.string(),
  /** The harness format it was read from, or `cuelab` for CueLab's own suite file. */
  format: z.enum(['cuelab', ...importFormats]),
  /** The file it came from, relative to the folder imported. */
  source: z.string(),
  sha256: z.string(),
  gold: z.enum(['pass', 'fail']).nullable(),
  messages: z.number().int(),
  /** The environment in a few words (an image, a Dockerfile, trajectory only). */
  environment: z.string(),
  limits: itemLimitsSchema,
  flags: z.array(z.string()),
  /** The count check: agent actions (commands, tool calls) the source shows and the item keeps. */
  steps: z.object({ source: z.number().int(), stored: z.number().int() }).optional(),
  /** Said aloud: fewer steps recovered than the source shows. */
  warnings: z.array(z.string()).default([]),
});

/** Caps on one upload of dropped files: the window checks them first, the engine enforces them. */
export const uploadLimits = {
  /** Most bytes one upload holds (what a dropped run folder may weigh). */
  maxBytes: 256 * 1024 * 1024,
  /** Most files one upload holds. */
  maxFiles: 20_000,
  /** Raw bytes per request: base64 and JSON stay under the engine's 1 MiB request cap. */
  requestBytes: 512 * 1024,
} as const;

/** A file that did not become an item. */
export const skippedRunSchema = z.object({ path: z.string(), reason: z.string() });

/** Results file formats `importResults` reads. */
export const resultsFormats = ['csv', 'jsonl'] as const;

/** A folder the window may name paths in, and why it may. */
export const importFolderSchema = z.object({
  /** Absolute path on the engine's machine. */
  path: z.string(),
  /** The workspace, the example runs CueLab ships, or a folder the user added in Settings. */
  source: z.enum(['workspace', 'examples', 'settings']),
});

const importFolderList = z.array(importFolderSchema);

/** Import methods. */
export const importMethods = {
  /** The folders whose files the window may name by path (a non-loopback peer: uploads only). */
  listImportFolders: { request: z.object({}).strict(), response: importFolderList },
  /** Adds an existing folder to those (kept in the workspace); this machine's user only. */
  addImportFolder: {
    request: z.object({ path: z.string().min(1) }).strict(),
    response: importFolderList,
  },
  /** Removes a folder the user added. */
  removeImportFolder: {
    request: z.object({ path: z.string().min(1) }).strict(),
    response: importFolderList,
  },
  /** Reads runs at a path on the engine's machine; stores them as a suite when `save`. */
  importRuns: {
    request: z
      .object({
        path: z.string().min(1),
        format: z.enum(['auto', ...importFormats]).default('auto'),
        name: z.string().min(1).max(200).optional(),
        tasksDir: z.string().min(1).optional(),
        toolOutputLimit: z.union([z.number().int().min(200), z.literal('unbounded')]).optional(),
        keepFlagged: z.boolean().optional(),
        /** Store runs another imported suite already holds (refused by default, named). */
        allowDuplicate: z.boolean().optional(),
        /** False: only preview; nothing is stored. */
        save: z.boolean(),
      })
      .strict(),
    response: z.object({
      suiteId: z.string(),
      suiteName: z.string(),
      saved: z.boolean(),
      imported: z.array(importedRunSchema),
      skipped: z.array(skippedRunSchema),
      /** Every warning of the import: steps lost, a suite that already holds these runs. */
      warnings: z.array(z.string()).default([]),
    }),
  },
  /**
   * Stages files dropped on the Import screen (the browser gives no path) in a temp folder on
   * the engine's machine, a few pieces per request (requests are capped at 1 MiB); the answer's
   * `path` is then imported like any other. No `uploadId`: a new upload, its folder `name`.
   */
  uploadImportFiles: {
    request: z
      .object({
        uploadId: z.string().uuid().optional(),
        name: z.string().min(1).max(200),
        pieces: z
          .array(
            z
              .object({
                path: z.string().min(1).max(1024),
                data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
                append: z.boolean(),
              })
              .strict(),
          )
          .max(2000),
      })
      .strict(),
    response: z.object({
      uploadId: z.string(),
      path: z.string(),
      files: z.number().int(),
      bytes: z.number().int(),
    }),
  },
  /** Per-rep verdicts of another harness (CSV or JSONL at `path`) stored as a study. */
  importResults: {
    request: z
      .object({
        path: z.string().min(1),
        name: z.string().trim().min(1).max(200).optional(),
        format: z.enum(resultsFormats).optional(),
      })
      .strict(),
    response: z.object({
      studyId: z.string(),
      name: z.string(),
      format: z.enum(resultsFormats),
      reps: z.number().int(),
      items: z.number().int(),
      judges: z.number().int(),
      conditions: z.array(z.string()),
      simulated: z.boolean(),
      warnings: z.array(z.string()),
    }),
  },
} as const;

export type ItemLimits = z.output<typeof itemLimitsSchema>;
/** A folder the window may name paths in. */
export type ImportFolder = z.output<typeof importFolderSchema>;
