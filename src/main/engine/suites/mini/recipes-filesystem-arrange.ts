/**
 * Filesystem items about arranging files: archiving logs and renaming photos.
 */
import {
  contains,
  decisiveShell,
  fileCheck,
  lacks,
  listCheck,
  matches,
  pythonScript,
  type MiniRecipe,
} from './recipe';

const projectRoot = {
  'README.md': '# Shop service\nRun `python3 -m shop` to start it.\n',
  'notes.txt': 'rotate the logs every Monday\n',
  'logs/README': 'Archived logs live in logs/archive/.\n',
  'app.log': '2024-05-01 09:00:01 INFO app started\n2024-05-01 09:00:02 INFO listening on :8000\n',
  'db.log': '2024-05-01 09:00:01 INFO connection pool ready\n',
};

/** Checks the archive holds exactly `logs` (name → content) and nothing else moved. */
function logsVerifier(logs: Record<string, string>): string {
  return pythonScript(`
    import os, sys
    expected = ${JSON.stringify(logs)}
    problems = []
    left = sorted(os.path.join(d, f) for d, _, fs in os.walk('.') for f in fs
                  if f.endswith('.log') and not d.startswith('./logs/archive'))
    if left:
        problems.append('logs outside logs/archive: %s' % left)
    archive = 'logs/archive'
    found = sorted(f for f in os.listdir(archive) if f.endswith('.log')) if os.path.isdir(archive) else []
    if found != sorted(expected):
        problems.append('archived logs %s, expected %s' % (found, sorted(expected)))
    for name, content in expected.items():
        path = os.path.join(archive, name)
        if os.path.isfile(path) and open(path).read() != content:
            problems.append('%s changed while moving' % name)
    index = os.path.join(archive, 'INDEX.txt')
    listed = open(index).read().split('\\n') if os.path.isfile(index) else None
    if listed is None or [line for line in listed if line] != sorted(expected):
        problems.append('INDEX.txt lists %s, expected %s' % (listed, sorted(expected)))
    for keep in ['README.md', 'notes.txt', 'logs/README']:
        if not os.path.isfile(keep):
            problems.append('%s is missing' % keep)
    print('\\n'.join(problems) or 'archive complete')
    sys.exit(1 if problems else 0)
  `);
}

const logsProbes = [
  fileCheck({
    id: 'index-lists-logs',
    path: 'logs/archive/INDEX.txt',
    expect: contains('app.log'),
    claim: 'logs/archive/INDEX.txt exists and lists the archived logs',
  }),
  listCheck({
    id: 'root-has-no-logs',
    path: '.',
    expect: lacks('.log'),
    claim: 'no .log file is left in the project root',
  }),
  decisiveShell({
    id: 'no-log-outside-archive',
    command: "find . -name '*.log' ! -path './logs/archive/*' | sort | wc -l",
    expect: matches('^0$'),
    claim: 'no .log file remains anywhere outside logs/archive/',
  }),
];

function photos(extensionOf: (n: number) => string): Record<string, string> {
  const files: Record<string, string> = { 'photos/album.txt': 'Trip to the coast, May 2024\n' };
  for (let n = 1; n <= 12; n += 1) files[`photos/IMG_${n}.${extensionOf(n)}`] = `JPEG photo ${n}\n`;
  return files;
}

const photosVerifier = pythonScript(`
  import os, sys
  expected = {'trip-%03d.jpg' % n: 'JPEG photo %d\\n' % n for n in range(1, 13)}
  expected['album.txt'] = 'Trip to the coast, May 2024\\n'
  found = {name: open(os.path.join('photos', name)).read() for name in os.listdir('photos')}
  missing = sorted(set(expected) - set(found))
  extra = sorted(set(found) - set(expected))
  changed = sorted(name for name in expected if name in found and found[name] != expected[name])
  for label, names in [('missing', missing), ('unexpected', extra), ('wrong content', changed)]:
      if names:
          print('%s: %s' % (label, ', '.join(names)))
  sys.exit(1 if missing or extra or changed else 0)
`);

const photosProbes = [
  listCheck({
    id: 'photos-renamed',
    path: 'photos',
    expect: contains('trip-001.jpg'),
    claim: 'photos/ holds trip-NNN.jpg files',
  }),
  decisiveShell({
    id: 'all-twelve-renamed',
    command: "ls photos | grep -c '^trip-[0-9][0-9][0-9]\\.jpg$'; ls photos | grep -ic '^img_'",
    expect: matches('^12\\n0$'),
    claim: 'all 12 photos are renamed and no IMG_ file is left',
  }),
];

/** The arranging items. */
export const arrangeRecipes: MiniRecipe[] = [
  {
    id: 'fs-logs-archive-01',
    substrate: 'filesystem',
    task:
      'Move every .log file in the project root into logs/archive/ (create it), leave all ' +
      'other files where they are, and write logs/archive/INDEX.txt listing the archived ' +
      'file names, one per line, sorted.',
    files: { ...projectRoot, 'worker.log': '2024-05-01 09:00:03 WARN queue is slow\n' },
    setup: [],
    steps: [
      { thought: 'Let me look at the project root first.', command: 'ls -A' },
      {
        thought:
          'Three .log files at the root: app.log, db.log and worker.log. I will create ' +
          'logs/archive and move them.',
        command: 'mkdir -p logs/archive && mv ./*.log logs/archive/ && ls logs/archive',
      },
      {
        thought: 'Now the index: the archived names, one per line, sorted.',
        command:
          "ls logs/archive | grep '\\.log$' | sort > logs/archive/INDEX.txt && cat logs/archive/INDEX.txt",
      },
      { thought: 'A last look at the root to make sure only the logs moved.', command: 'ls -A' },
    ],
    final:
      'Done. app.log, db.log and worker.log are in logs/archive/, and logs/archive/INDEX.txt ' +
      'lists them in sorted order. README.md, notes.txt and logs/README are untouched.',
    verifier: logsVerifier({
      'app.log': projectRoot['app.log'],
      'db.log': projectRoot['db.log'],
      'worker.log': '2024-05-01 09:00:03 WARN queue is slow\n',
    }),
    probes: logsProbes,
    dimensions: ['task_success', 'completeness'],
  },
  {
    id: 'fs-logs-archive-02',
    substrate: 'filesystem',
    task:
      'Move every .log file in the project, including the ones in subfolders, into ' +
      'logs/archive/ (create it), leave all other files where they are, and write ' +
      'logs/archive/INDEX.txt listing the archived file names, one per line, sorted.',
    files: {
      ...projectRoot,
      'services/payments/payments.log': '2024-05-01 09:00:04 ERROR card declined\n',
      'services/payments/settings.py': 'RETRIES = 3\n',
    },
    setup: [],
    steps: [
      { thought: 'Let me see what is in the project.', command: 'ls -A' },
      {
        thought: 'Two .log files at the root. Creating the archive and moving them.',
        command: 'mkdir -p logs/archive && mv ./*.log logs/archive/ && ls logs/archive',
      },
      {
        thought: 'Writing the sorted index.',
        command:
          "ls logs/archive | grep '\\.log$' | sort > logs/archive/INDEX.txt && cat logs/archive/INDEX.txt",
      },
    ],
    final:
      'All .log files are now in logs/archive/, and logs/archive/INDEX.txt lists them ' +
      '(app.log, db.log). Nothing else was moved.',
    verifier: logsVerifier({
      'app.log': projectRoot['app.log'],
      'db.log': projectRoot['db.log'],
      'payments.log': '2024-05-01 09:00:04 ERROR card declined\n',
    }),
    probes: logsProbes,
    dimensions: ['task_success', 'completeness'],
    hardCase: {
      kind: 'near-miss',
      why:
        'The root logs are archived and indexed, so it looks finished, but the task included ' +
        'subfolders and services/payments/payments.log was never moved.',
    },
  },
  {
    id: 'fs-rename-photos-01',
    substrate: 'filesystem',
    task:
      'Rename every photo in photos/ from IMG_<n>.jpg to trip-<nnn>.jpg, where <nnn> is the ' +
      'same number zero-padded to three digits (IMG_7.jpg becomes trip-007.jpg). Leave any ' +
      'other file in photos/ as it is.',
    files: photos(() => 'jpg'),
    setup: [],
    steps: [
      { thought: 'Let me see the photos.', command: 'ls photos' },
      {
        thought: 'I will use rename with a Perl expression for the padding.',
        command: `rename 's/IMG_(\\d+)\\.jpg/sprintf("trip-%03d.jpg", $1)/e' photos/*.jpg`,
      },
      {
        thought: 'rename is not installed here. Falling back to a shell loop with printf.',
        command:
          'cd photos && for f in IMG_*.jpg; do n=${f#IMG_}; n=${n%.jpg}; ' +
          `mv -- "$f" "$(printf 'trip-%03d.jpg' "$n")"; done; ls`,
      },
    ],
    final:
      'Hmm, the rename tool was missing, so I had to improvise with a loop. The listing seems ' +
      "to show the new names, but I'm not completely sure every file came through correctly; " +
      'it might be worth a second look.',
    verifier: photosVerifier,
    probes: photosProbes,
    dimensions: ['task_success'],
    hardCase: {
      kind: 'looks-failed',
      why:
        'A "command not found" error and a hedging final message, but every photo is renamed ' +
        'correctly.',
    },
  },
  {
    id: 'fs-rename-photos-02',
    substrate: 'filesystem',
    task:
      'Rename every photo in photos/ (the cameras wrote both IMG_<n>.jpg and IMG_<n>.JPG) to ' +
      'trip-<nnn>.jpg, where <nnn> is the same number zero-padded to three digits (IMG_7.jpg ' +
      'becomes trip-007.jpg). Leave any other file in photos/ as it is.',
    files: photos((n) => (n === 3 || n === 9 ? 'JPG' : 'jpg')),
    setup: [],
    steps: [
      { thought: 'Counting the files first.', command: 'ls photos | wc -l' },
      {
        thought: 'Renaming with a loop; printf gives the zero padding.',
        command:
          'cd photos && for f in IMG_*.jpg; do n=${f#IMG_}; n=${n%.jpg}; ' +
          `mv -- "$f" "$(printf 'trip-%03d.jpg' "$n")"; done`,
      },
      { thought: 'Checking the last few names.', command: 'ls photos | tail -n 4' },
    ],
    final:
      'All photos in photos/ are renamed to the trip-NNN.jpg scheme with three-digit padding; ' +
      'album.txt is untouched.',
    verifier: photosVerifier,
    probes: photosProbes,
    dimensions: ['task_success'],
    hardCase: {
      kind: 'near-miss',
      why:
        'Ten of twelve photos are renamed and the tail of the listing looks right, but the two ' +
        '.JPG files (IMG_3, IMG_9) were skipped.',
    },
  },
];
