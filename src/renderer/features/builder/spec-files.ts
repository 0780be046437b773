/**
 * Study specs as files: the same JSON (or YAML) `cuelab run` takes. In the desktop window the
 * native dialogs save and open them; in a browser Save downloads `*.cuelab.json` and Open
 * reads a file the person picks.
 */
import { studySpecSchema, type StudySpec, type StudySpecInput } from '../../../shared/study-spec';

const specFilters = [{ name: 'Study spec', extensions: ['json', 'yaml', 'yml'] }];

/** What reading a spec file gave: the spec, or why it is not one. */
export type SpecFileResult =
  { ok: true; spec: StudySpec; fileName: string } | { ok: false; message: string };

/** A file name for a spec: its name as a slug, `.cuelab.json`. */
export function specFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'study'}.cuelab.json`;
}

/** Saves a spec; resolves to where it went (a path, or the download's name), null if cancelled. */
export async function saveSpecFile(spec: StudySpecInput): Promise<string | null> {
  const data = `${JSON.stringify(spec, null, 2)}\n`;
  const defaultName = specFileName(spec.name);
  const bridge = window.cuelab;
  if (bridge) {
    return bridge.saveFile({ title: 'Save study spec', defaultName, filters: specFilters, data });
  }
  const url = URL.createObjectURL(new Blob([data], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = defaultName;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the download a moment to start before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return defaultName;
}

/** Parses spec text (JSON, or YAML when it does not look like JSON) and validates it. */
export async function parseSpecText(text: string, fileName: string): Promise<SpecFileResult> {
  let raw: unknown;
  try {
    if (/\.ya?ml$/i.test(fileName) || !text.trimStart().startsWith('{')) {
      const { parse } = await import('yaml');
      raw = parse(text) as unknown;
    } else {
      raw = JSON.parse(text) as unknown;
    }
  } catch (error) {
    return { ok: false, message: `${fileName} is not JSON or YAML: ${describe(error)}` };
  }
  const parsed = studySpecSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.map(String).join('.') || '(spec)'}: ${issue.message}`);
    return { ok: false, message: `${fileName} is not a study spec. ${problems.join('; ')}` };
  }
  return { ok: true, spec: parsed.data, fileName };
}

/** Opens a spec through the native dialog; null when cancelled or outside the desktop app. */
export async function openSpecWithDialog(): Promise<SpecFileResult | null> {
  const bridge = window.cuelab;
  if (!bridge) return null;
  const picked = await bridge.openFile({ title: 'Open study spec', filters: specFilters });
  if (!picked) return null;
  const fileName = picked.path.split(/[\\/]/).pop() ?? picked.path;
  return parseSpecText(picked.text, fileName);
}

/** Reads a file the person chose in a file input. */
export async function readSpecFile(file: File): Promise<SpecFileResult> {
  return parseSpecText(await file.text(), file.name);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
