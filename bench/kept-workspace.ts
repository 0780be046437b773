/**
 * `CUELAB_BENCH_WORKSPACES=DIR`: a generated workspace kept in DIR and copied per run, since
 * generating one takes minutes on a shared machine. A copy, because the parts write into the
 * workspace they measure (reps land, tables persist).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The facts of the workspace now at `path`: made there by `make` or, with
 * CUELAB_BENCH_WORKSPACES=DIR, copied from DIR/`name` (made there first when DIR has none);
 * `copiedFrom` names the kept file when it was copied.
 */
export function keptWorkspace<Facts extends object>(
  name: string,
  path: string,
  make: (file: string) => Facts,
): { facts: Facts; copiedFrom: string | null } {
  const kept = process.env.CUELAB_BENCH_WORKSPACES;
  if (!kept) return { facts: make(path), copiedFrom: null };
  const dir = join(kept, name);
  const keptFile = join(dir, 'cuelab.sqlite');
  const keptFacts = join(dir, 'generated.json');
  if (!existsSync(keptFacts)) {
    mkdirSync(dir, { recursive: true });
    rmSync(keptFile, { force: true });
    const facts = make(keptFile);
    writeFileSync(keptFacts, JSON.stringify(facts));
  }
  copyFileSync(keptFile, path);
  return { facts: JSON.parse(readFileSync(keptFacts, 'utf8')) as Facts, copiedFrom: keptFile };
}
