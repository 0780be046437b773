/**
 * The browser setup the builder tests share: a fresh `cuelab serve`, Chromium at 1280×800 in
 * the light scheme, the builder open and connected to the engine.
 */
import type { StartEngineOptions } from './engine';
import { openLabSession, type LabSession } from './lab-session';

/** An engine, a browser and a page on the builder; `close` stops them in order. */
export type BuilderSession = LabSession;

/** Starts the engine (with `options`), opens Chromium on `#/builder` and waits to connect. */
export function openBuilderPage(options: StartEngineOptions = {}): Promise<BuilderSession> {
  return openLabSession('#/builder', { width: 1280, height: 800 }, options);
}
