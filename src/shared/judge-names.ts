/**
 * A judge's name is what every table, figure, CSV and export shows: a short id (`sonnet`) or a
 * provider's model id as it is (`anthropic/claude-3-7-sonnet-20250219-thinking-16k`,
 * `Qwen/Qwen3-235B-A22B-Instruct-2507-FP8`, `meta-llama/Llama-3.3-70B-Instruct:free`). Where a
 * name must be a safe token (the seed of a rep, a file name), `judgeKey` derives one from it.
 * The spec validator, the Builder, `import-results` and the CLI all use this one rule, so no
 * place accepts a name another refuses.
 */
import { z } from 'zod';

/** The longest judge name (long model ids with a provider prefix and a variant fit). */
export const judgeNameMaxLength = 200;

/** A key that needs no deriving: what judge ids were before model ids were allowed. */
const safeKey = /^[a-z0-9][a-z0-9._-]{0,63}$/;

// Control characters (C0, DEL, C1) and the line and paragraph separators.
// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Why `name` cannot name a judge, or null when it can. */
export function judgeNameProblem(name: string): string | null {
  if (name.trim() === '') return 'a judge needs a name (e.g. its model id)';
  if (name.length > judgeNameMaxLength)
    return `a judge name is at most ${judgeNameMaxLength} characters (this one has ${name.length})`;
  if (name !== name.trim()) return 'a judge name cannot start or end with a space';
  if (controlCharacter.test(name))
    return 'a judge name cannot hold a tab, line break or other control character';
  return null;
}

/** A judge name in a spec or a results file. */
export const judgeNameSchema = z.string().superRefine((name, context) => {
  const problem = judgeNameProblem(name);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** FNV-1a, 32 bits, as 8 hex digits: enough to keep two names that slug alike apart. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (const unit of new TextEncoder().encode(text)) {
    hash ^= unit;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The judge's internal key: the name itself when it is already lower-case letters, digits, `.`,
 * `_` and `-` (so existing studies keep their keys), else a slug of it plus a hash of the whole
 * name (`anthropic-claude-3-7-sonnet-20250219-thinking-16k-1a2b3c4d`). Two different names
 * never share a key unless their hashes collide.
 */
export function judgeKey(name: string): string {
  if (safeKey.test(name)) return name;
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 56);
  return `${slug || 'judge'}-${shortHash(name)}`;
}
