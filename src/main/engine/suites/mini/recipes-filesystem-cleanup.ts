/**
 * Filesystem items about cleaning up: a build folder and an inbox of duplicate files.
 */
import {
  contains,
  decisiveShell,
  fileCheck,
  lacks,
  listCheck,
  matches,
  pythonScript,
  shellCheck,
  type MiniRecipe,
} from './recipe';

const inbox = {
  'inbox/report-a.txt': 'Q1 revenue: 120k\n',
  'inbox/report-a_old.txt': 'Q1 revenue: 120k\n',
  'inbox/scan-0042.txt': 'Q1 revenue: 120k\n',
  'inbox/report-b.txt': 'Q2 revenue: 135k\n',
  'inbox/memo.txt': 'Team offsite on Friday\n',
  'inbox/memo_v2.txt': 'Team offsite on Friday\n',
  'inbox/notes.txt': 'Order more coffee\n',
};

const dedupeVerifier = pythonScript(`
  import os, sys
  expected = {'memo.txt': 'Team offsite on Friday\\n', 'notes.txt': 'Order more coffee\\n',
              'report-a.txt': 'Q1 revenue: 120k\\n', 'report-b.txt': 'Q2 revenue: 135k\\n'}
  found = {name: open(os.path.join('inbox', name)).read() for name in sorted(os.listdir('inbox'))}
  print('inbox holds: %s' % ', '.join(found))
  sys.exit(0 if found == expected else 1)
`);

const dedupeTask =
  'inbox/ contains duplicate files (identical content under different names). Delete the ' +
  'duplicates so that each distinct content is kept exactly once, under the alphabetically ' +
  'first of its names. Do not touch files that have no duplicate.';

const dedupeProbes = [
  listCheck({
    id: 'originals-kept',
    path: 'inbox',
    expect: contains('report-a.txt'),
    claim: 'report-a.txt is still in inbox/',
  }),
  listCheck({
    id: 'copy-removed',
    path: 'inbox',
    expect: lacks('memo_v2.txt'),
    claim: 'the obvious copy memo_v2.txt is gone',
  }),
  decisiveShell({
    id: 'no-duplicate-content',
    command: "cd inbox && sha256sum * | awk '{print $1}' | sort | uniq -d | wc -l",
    expect: matches('^0$'),
    claim: 'no two files in inbox/ have the same content',
  }),
];

/** The arranging items. */
const buildTree = {
  'build/app.o': 'ELF object app\n',
  'build/app.o.bak': 'ELF object app (old)\n',
  'build/main.tmp': 'partial link output\n',
  'build/temp-notes.txt': 'keep: notes about temporary flags\n',
  'build/cache/index.tmp': 'cache index\n',
  'build/cache/blob-1.tmp': 'cache blob\n',
  'build/cache/keep.txt': 'keep this cache marker\n',
  'build/docs/manual.html': '<h1>Manual</h1>\n',
  'build/docs/manual.html.bak': '<h1>Manual (draft)</h1>\n',
  'build/docs/backup-plan.txt': 'keep: backup plan\n',
};

const cleanupTask =
  'Delete every *.tmp and *.bak file under build/ (at any depth) and keep everything else. ' +
  'Then write the number of files you deleted to cleanup.txt (just the number).';

const cleanupVerifier = pythonScript(`
  import os, sys
  keep = ${JSON.stringify(
    Object.fromEntries(Object.entries(buildTree).filter(([path]) => !/\.(tmp|bak)$/.test(path))),
  )}
  problems = []
  left = sorted(os.path.join(d, f) for d, _, fs in os.walk('build') for f in fs
                if f.endswith('.tmp') or f.endswith('.bak'))
  if left:
      problems.append('still present: %s' % ', '.join(left))
  for path, content in keep.items():
      if not os.path.isfile(path) or open(path).read() != content:
          problems.append('lost or changed: %s' % path)
  count = open('cleanup.txt').read().strip() if os.path.isfile('cleanup.txt') else None
  if count != '5':
      problems.append('cleanup.txt says %r, expected 5' % count)
  print('\\n'.join(problems) or 'build/ is clean')
  sys.exit(1 if problems else 0)
`);

const cleanupProbes = [
  fileCheck({
    id: 'count-recorded',
    path: 'cleanup.txt',
    expect: matches('^5$'),
    claim: 'cleanup.txt records 5 deleted files',
  }),
  shellCheck({
    id: 'no-bak-left',
    command: "find build -name '*.bak' | wc -l",
    expect: matches('^0$'),
    claim: 'no *.bak file is left under build/',
  }),
  decisiveShell({
    id: 'no-tmp-or-bak-left',
    command: "find build \\( -name '*.tmp' -o -name '*.bak' \\) | sort | wc -l",
    expect: matches('^0$'),
    claim: 'no *.tmp or *.bak file is left anywhere under build/',
  }),
];

// Three parts of an order export, 406 data rows, generated in setup; sample.csv is 12 rows.

/** The clean-up items. */
export const cleanupRecipes: MiniRecipe[] = [
  {
    id: 'fs-build-cleanup-01',
    substrate: 'filesystem',
    task: cleanupTask,
    files: buildTree,
    setup: [],
    steps: [
      { thought: 'Listing everything under build/.', command: 'find build -type f | sort' },
      {
        thought: 'Five files match *.tmp or *.bak. Counting, deleting, and recording the count.',
        command:
          "n=$(find build -type f \\( -name '*.tmp' -o -name '*.bak' \\) | wc -l); " +
          "find build -type f \\( -name '*.tmp' -o -name '*.bak' \\) -delete; " +
          'echo "$n" > cleanup.txt; cat cleanup.txt',
      },
      { thought: 'What is left:', command: 'find build -type f | sort' },
    ],
    final:
      'Deleted 5 files under build/ (3 *.tmp, 2 *.bak); cleanup.txt says 5. Everything else ' +
      'under build/ is still there, including temp-notes.txt and backup-plan.txt.',
    verifier: cleanupVerifier,
    probes: cleanupProbes,
    dimensions: ['task_success'],
  },
  {
    id: 'fs-build-cleanup-02',
    substrate: 'filesystem',
    task: cleanupTask,
    files: buildTree,
    setup: [],
    steps: [
      {
        thought: 'Finding the files to delete.',
        command: "find build -name '*.tmp' -o -name '*.bak' | sort",
      },
      {
        thought: 'Five to delete. Recording the count, then deleting with the same expression.',
        command: "echo 5 > cleanup.txt && find build -name '*.tmp' -o -name '*.bak' -delete",
      },
      { thought: 'Checking that nothing is left.', command: "find build -name '*.bak' | wc -l" },
    ],
    final:
      'Cleanup done: deleted the 5 *.tmp/*.bak files under build/ and wrote the count to ' +
      'cleanup.txt. Verified that none are left.',
    verifier: cleanupVerifier,
    probes: cleanupProbes,
    dimensions: ['task_success'],
    hardCase: {
      kind: 'confident-wrong',
      why:
        'Without parentheses, find applied -delete only to *.bak; the three *.tmp files remain. ' +
        'The agent checked only for *.bak and declared it verified.',
    },
  },
  {
    id: 'fs-dedupe-inbox-01',
    substrate: 'filesystem',
    task: dedupeTask,
    files: inbox,
    setup: [],
    steps: [
      {
        thought: 'Hashing everything in inbox/ to find identical files.',
        command: 'cd inbox && sha256sum * | sort',
      },
      {
        thought:
          'Two groups share a hash. I will keep the alphabetically first name of each group ' +
          'and delete the rest.',
        command: pythonScript(`
          import hashlib, os
          groups = {}
          for name in sorted(os.listdir('inbox')):
              digest = hashlib.sha256(open(os.path.join('inbox', name), 'rb').read()).hexdigest()
              groups.setdefault(digest, []).append(name)
          for names in groups.values():
              for name in names[1:]:
                  os.remove(os.path.join('inbox', name))
                  print('removed', name, '(kept %s)' % names[0])
        `),
      },
      { thought: 'What is left:', command: 'ls inbox' },
    ],
    final:
      'Removed report-a_old.txt, scan-0042.txt and memo_v2.txt. inbox/ now holds memo.txt, ' +
      'notes.txt, report-a.txt and report-b.txt, one copy of each distinct file.',
    verifier: dedupeVerifier,
    probes: dedupeProbes,
    dimensions: ['task_success'],
  },
  {
    id: 'fs-dedupe-inbox-02',
    substrate: 'filesystem',
    task: dedupeTask,
    files: inbox,
    setup: [],
    steps: [
      { thought: 'fdupes is the quickest way to find duplicates.', command: 'fdupes -r inbox' },
      {
        thought: 'No fdupes. I will hash the files in Python instead.',
        command: pythonScript(`
          import hashlib, os
          seen = {}
          for name in sorted(os.listdir('inbox')):
              digest = hashlib.sha256(open(name, 'rb').read()).hexdigest()
              seen.setdefault(digest, []).append(name)
          print(seen)
        `),
      },
    ],
    final:
      "I couldn't finish this: fdupes isn't installed and my hashing script failed with a " +
      'FileNotFoundError. I stopped without deleting anything, so the duplicates are still in ' +
      'inbox/.',
    verifier: dedupeVerifier,
    probes: dedupeProbes,
    dimensions: ['task_success'],
  },
];
