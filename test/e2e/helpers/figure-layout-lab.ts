/**
 * The lab the layout tests drive: results files imported into a fresh workspace (one study
 * each, named after its key), a real `cuelab serve` on it and Chromium at a viewport.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningEngine } from './engine';
import { openWorkspaceSession } from './lab-session';
import { importStudy } from './results-fixture';

/** A running lab and the ids of its imported studies. */
export interface LayoutLab {
  engine: RunningEngine;
  page: Page;
  /** Study id by the key its file was given. */
  studies: Record<string, string>;
  /** Opens `#/<path>` and waits for the engine connection. */
  open: (path: string) => Promise<void>;
  close: () => Promise<void>;
}

/** Imports `files` (key → CSV text, study name `name(key)`), starts the engine and a browser. */
export async function openLayoutLab(
  files: Record<string, string>,
  viewport: { width: number; height: number },
  colorScheme: 'light' | 'dark' = 'light',
  name: (key: string) => string = (key) => `Layout ${key}`,
): Promise<LayoutLab> {
  const studies: Record<string, string> = {};
  const session = await openWorkspaceSession({
    name: 'layout',
    viewport,
    colorScheme,
    fill: (workspace, folder) => {
      for (const [key, text] of Object.entries(files))
        studies[key] = importStudy(workspace, join(folder, `${key}.csv`), text, name(key));
    },
  });
  return {
    engine: session.engine,
    page: session.page,
    studies,
    open: (path) => session.goto(`#/${path}`),
    close: () => session.close(),
  };
}
