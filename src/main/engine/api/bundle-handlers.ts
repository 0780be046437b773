/**
 * LabApi handlers for a study packed as files (lab-api/bundles.ts): a CueLab bundle out (every
 * key the engine holds redacted) and in, and Inspect AI logs. Nothing here writes where a
 * caller points: what is exported comes back as data.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildBundle, bundleText, exportInspectLogs, openBundle } from '../export';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The bundle handlers. */
export function bundleHandlers(
  context: Pick<HandlerContext, 'store' | 'secrets' | 'onStudyChanged'>,
): DomainHandlers<'exportBundle' | 'openBundle' | 'exportInspect'> {
  const { store } = context;
  return {
    exportBundle: ({ studyId }) => {
      // Every key the engine holds (session keys too) is redacted, not only process.env's.
      const bundle = buildBundle(store, studyId);
      const { text, redacted } = bundleText(bundle, context.secrets.env());
      const data = gzipSync(Buffer.from(text, 'utf8'));
      return {
        fileName: `cuelab-${studyId.slice(0, 8)}.cuelab-bundle.json.gz`,
        base64: data.toString('base64'),
        bytes: data.length,
        reps: bundle.tables.reps.length,
        labels: bundle.tables.labels.length,
        redacted,
      };
    },
    openBundle: ({ base64, path, replace }) => {
      const open = (file: string) => {
        const summary = openBundle(store, file, replace ? { replace } : {});
        context.onStudyChanged(summary.studyId);
        return {
          studyId: summary.studyId,
          name: summary.name,
          reps: summary.reps,
          labels: summary.labels,
          replaced: summary.replaced,
          suiteCreated: summary.suiteCreated,
          itemsAdded: summary.itemsAdded,
        };
      };
      // A path (the CLI, the desktop shell, a streamed upload's temporary file) opens as is.
      if (path !== undefined) return open(path);
      const folder = mkdtempSync(join(tmpdir(), 'cuelab-bundle-'));
      try {
        const file = join(folder, 'bundle.json.gz');
        writeFileSync(file, Buffer.from(base64 ?? '', 'base64'));
        return open(file);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    exportInspect: ({ studyId, format = 'json' }) => {
      // The exporter writes a folder; it writes a private one here, and the CLI the user's.
      const folder = mkdtempSync(join(tmpdir(), 'cuelab-inspect-'));
      try {
        const written = exportInspectLogs(store, studyId, folder, format);
        return {
          logs: written.map((log) => ({
            name: basename(log.file),
            ...(format === 'eval'
              ? { base64: readFileSync(log.file).toString('base64') }
              : { text: readFileSync(log.file, 'utf8') }),
            judge: log.judge,
            condition: log.condition,
            samples: log.samples,
          })),
        };
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
