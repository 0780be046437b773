import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Comments say why, and an issue number says only where a discussion once was: the reason
// belongs in the comment itself. This scans the code's own folders for the word "issue"
// followed by a number, with or without '#', anywhere in a line (the pattern cannot tell a
// comment from a string, and a string that needs one is rare enough to word differently).
const root = join(__dirname, '..', '..');
const folders = ['src', 'test', 'bench', 'scripts', 'eslint-rules'];
const code = /\.(ts|tsx|mts|js|mjs|cjs)$/;
const issueNumber = /\bissue #?\d+/i;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    return statSync(path).isDirectory() ? files(path) : code.test(name) ? [path] : [];
  });
}

/** `path:line` of every line citing an issue number. */
function citations(paths: readonly string[]): string[] {
  return paths.flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        issueNumber.test(line) ? [`${relative(root, path)}:${index + 1}`] : [],
      ),
  );
}

describe('no comment cites an issue number', () => {
  it('the pattern finds the citations it should and nothing else', () => {
    // Spelled in two pieces, so this file does not cite what it checks for.
    expect(issueNumber.test(`// see issue ${26}`)).toBe(true);
    expect(issueNumber.test(`/* Issue #${7}: a workaround */`)).toBe(true);
    expect(issueNumber.test('// the issues 3 reviewers raised')).toBe(false);
    expect(issueNumber.test('// an issue with the lease')).toBe(false);
  });

  it('in src, test, bench, scripts and eslint-rules', () => {
    const scanned = folders.flatMap((folder) => files(join(root, folder)));
    expect(scanned.length).toBeGreaterThan(100);
    expect(citations(scanned)).toEqual([]);
  });
});
