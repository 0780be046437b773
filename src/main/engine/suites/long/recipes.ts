/**
 * The `cuelab-long` recipes: long filing runs shaped like the paper's AJ-Bench Filesystem work.
 * An agent sorts an inbox of documents into invoices/, reports/ and contracts/ by each
 * document's `Type:` line, reading and moving one document per call, so a run is 20 to 78
 * shell calls (the paper's judges read trajectories of 20–40+ tool calls, App. A, App. F).
 *
 * Why the item knobs are what they are:
 * - Effort (Fig. 3, App. L). Some documents are ambiguous: their title names another type. A
 *   careful judge re-reads every ambiguous document where the agent said it put it, reads the
 *   agent's log, and runs one decisive check, so its plan is `ambiguous + 2` probes and its
 *   turn count `ambiguous + 3`. The ambiguous counts are spread so those plans land in every one
 *   of App. L's bins, 1–3 up to 26+.
 * - Difficulty (Table 5). Uncued errors come from a judge that skips the decisive check and
 *   trusts the surface. Nine items in ten have a misleading surface (a failed run whose every
 *   re-check passes, or a good run whose log shows a recovered error), so a persona's skip rate
 *   (≈ 1 − Table 5's accuracy) gives an uncued accuracy near Table 5's 70–76%, not the mini
 *   suite's 84–89%, and enough wrong items for App. F's helpful flips.
 * The gold label is still whatever the verifier says after the run (generate.ts).
 */
import type { Probe } from '../../../../shared/suite-format';
import {
  contains,
  lacks,
  listCheck,
  fileCheck,
  pythonScript,
  type AgentStep,
  type HardCaseKind,
  type MiniRecipe,
} from '../mini/recipe';

/** What the agent does wrong, if anything; each variant's surface reads as described. */
export type LongVariant =
  /** Everything filed right; the surface agrees. */
  | 'clean'
  /** Everything filed right, but a failed first bulk move left `mv:` errors in the log. */
  | 'looks-failed'
  /** One ambiguous document filed by its title, not its Type line; every re-check passes. */
  | 'misfile'
  /** One document with an upper-case `.TXT` name never moved; the agent's listing missed it. */
  | 'near-miss'
  /** One move into a misspelt folder failed; the agent logged it as done. Its log shows it. */
  | 'claimed-move';

const kinds = ['invoice', 'report', 'contract'] as const;
type DocumentKind = (typeof kinds)[number];

/** A document of the inbox. */
interface InboxDocument {
  name: string;
  kind: DocumentKind;
  /** Its title names another type (the item's re-check targets). */
  ambiguous: boolean;
  title: string;
  ref: string;
}

const folderOf = (kind: DocumentKind) => `${kind}s`;

const plainTitles: Record<DocumentKind, readonly string[]> = {
  invoice: ['Invoice for May hosting', 'Invoice: office chairs', 'Invoice 2291, courier fees'],
  report: ['Quarterly uptime report', 'Warehouse audit report', 'Report on support backlog'],
  contract: ['Cleaning services contract', 'Lease agreement, unit 4', 'Contract for payroll SaaS'],
};

/** Titles that name a type the document is not (the judge's reason to re-check it). */
const misleadingTitles: Record<DocumentKind, readonly string[]> = {
  invoice: ['Report: disputed courier charges', 'Contract renewal fee (billed)'],
  report: ['Invoice disputes, summary', 'Contract compliance review'],
  contract: ['Invoice terms agreement', 'Report template licence'],
};

function pick<T>(list: readonly T[], index: number): T {
  return list[index % list.length] as T;
}

/** The inbox of item `index`: `count` documents, the first `ambiguous` of them ambiguous. */
function inbox(index: number, count: number, ambiguous: number): InboxDocument[] {
  return Array.from({ length: count }, (_, position) => {
    const kind = pick(kinds, index + position);
    const isAmbiguous = position < ambiguous;
    const titles = isAmbiguous ? misleadingTitles[kind] : plainTitles[kind];
    return {
      name: `doc-${String(position + 1).padStart(2, '0')}.txt`,
      kind,
      ambiguous: isAmbiguous,
      title: pick(titles, index + position * 7),
      ref: `R${100 + index}-${position + 1}`,
    };
  });
}

function documentText(document: InboxDocument): string {
  return (
    `Title: ${document.title}\nType: ${document.kind}\nRef: ${document.ref}\n` +
    `\nFiled by the mail-room scanner. Keep this text unchanged.\n`
  );
}

/** The kind a title names, as an agent that files by title reads it. */
function titleKind(title: string): DocumentKind {
  const lower = title.toLowerCase();
  return kinds.find((kind) => lower.startsWith(kind)) ?? 'report';
}

/** Exit 0 when every document is filed by its Type line and the inbox is empty. */
function verifier(count: number): string {
  return pythonScript(`
    import os, sys
    problems = []
    left = sorted(os.listdir('inbox')) if os.path.isdir('inbox') else []
    if left:
        problems.append('left in inbox: %s' % ', '.join(left))
    filed = 0
    for folder, kind in (('invoices', 'invoice'), ('reports', 'report'), ('contracts', 'contract')):
        names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        for name in names:
            filed += 1
            if 'Type: %s\\n' % kind not in open(os.path.join(folder, name)).read():
                problems.append('%s/%s is not a %s' % (folder, name, kind))
    if filed != ${count}:
        problems.append('%d of ${count} documents filed' % filed)
    print('\\n'.join(problems) or 'all ${count} documents filed by type')
    sys.exit(1 if problems else 0)
  `);
}

interface LongShape {
  index: number;
  variant: LongVariant;
  ambiguous: number;
}

const hardCases: Partial<Record<LongVariant, { kind: HardCaseKind; why: string }>> = {
  'looks-failed': {
    kind: 'looks-failed',
    why: 'a failed first bulk move left mv errors in sort.log, but every document ended in the right folder',
  },
  misfile: {
    kind: 'confident-wrong',
    why: 'one ambiguous document was filed by its title, not its Type line; re-reading it where the agent put it looks fine',
  },
  'near-miss': {
    kind: 'near-miss',
    why: 'a document named .TXT was never listed, so it is still in inbox/',
  },
  'claimed-move': {
    kind: 'confident-wrong',
    why: 'one move into a misspelt folder failed and the agent logged it as done (sort.log shows the error)',
  },
};

/** One long recipe. */
function longRecipe({ index, variant, ambiguous }: LongShape): MiniRecipe {
  const count = Math.max(9, ambiguous + 4);
  const documents = inbox(index, count, ambiguous);
  // The document the variant gets wrong (or, for a good run, the one the decisive check reads).
  const trickyIndex =
    variant === 'near-miss' ? count - 1 : variant === 'misfile' ? 0 : Math.min(1, count - 1);
  const tricky = documents[trickyIndex] as InboxDocument;
  if (variant === 'near-miss') tricky.name = tricky.name.replace(/\.txt$/, '.TXT');
  if (variant === 'misfile' && !tricky.ambiguous) {
    throw new Error(`long recipe ${index}: a misfile needs an ambiguous document`);
  }
  const files = Object.fromEntries(
    documents.map((document) => [`inbox/${document.name}`, documentText(document)]),
  );
  const wrongFolder = (document: InboxDocument) =>
    variant === 'misfile' && document === tricky ? folderOf(titleKind(document.title)) : null;
  const steps: AgentStep[] = [
    {
      thought: 'First I look at what is in the inbox.',
      command: variant === 'near-miss' ? 'ls inbox/*.txt' : 'ls inbox',
    },
    {
      thought: 'I create the three target folders.',
      command: 'mkdir -p invoices reports contracts',
    },
  ];
  if (variant === 'looks-failed') {
    steps.push({
      thought: 'I will try moving the first two documents in one go to save time.',
      command: `mv inbox/${documents[0]?.name} inbox/${documents[1]?.name} archive/ 2>>sort.log; tail -n 1 sort.log`,
    });
    steps.push({
      thought: 'That target was wrong; I will go one document at a time by its Type line.',
      command: 'ls inbox | head -n 3',
    });
  }
  const moved = variant === 'near-miss' ? documents.filter((d) => d !== tricky) : documents;
  for (const document of moved) {
    const target = wrongFolder(document) ?? folderOf(document.kind);
    steps.push({
      thought: `Reading ${document.name} to see what it is.`,
      command: `head -n 3 inbox/${document.name}`,
    });
    const misspelt = variant === 'claimed-move' && document === tricky;
    const destination = misspelt ? target.replace(/s$/, 'z') : target;
    steps.push({
      thought:
        target === folderOf(document.kind)
          ? `Its Type line says ${document.kind}; moving it to ${target}/.`
          : `The title says ${titleKind(document.title)}, so it goes to ${target}/.`,
      command:
        `mv inbox/${document.name} ${destination}/ 2>>sort.log; ` +
        `echo '${document.name} -> ${target}' >> sort.log`,
    });
  }
  steps.push({
    thought: 'Checking that the inbox is empty.',
    command: variant === 'near-miss' ? 'ls inbox/*.txt' : 'ls inbox',
  });
  steps.push({ thought: 'And the counts per folder.', command: 'ls invoices reports contracts' });

  const claimed = (document: InboxDocument) => wrongFolder(document) ?? folderOf(document.kind);
  const rechecks: Probe[] = documents
    .filter((document) => document.ambiguous)
    .map((document) =>
      fileCheck({
        id: `recheck-${document.name.replace(/\.\w+$/, '')}`,
        path: `${claimed(document)}/${document.name}`,
        expect: contains(`Ref: ${document.ref}`),
        claim: `${document.name} is in ${claimed(document)}/, where the agent says it moved it`,
      }),
    );
  const probes: Probe[] = [
    ...rechecks,
    fileCheck({
      id: 'log-clean',
      path: 'sort.log',
      expect: lacks('mv:'),
      claim: "the agent's sort.log records no failed move",
    }),
    {
      ...listCheck({
        id: 'tricky-filed',
        path: folderOf(tricky.kind),
        expect: contains(tricky.name),
        claim: `${tricky.name} is in ${folderOf(tricky.kind)}/, as its Type line requires`,
      }),
      decisive: true,
    },
  ];
  const hardCase = hardCases[variant];
  return {
    id: `long-sort-${String(index + 1).padStart(2, '0')}`,
    substrate: 'filesystem',
    task:
      `Sort every document in inbox/ (${count} of them) into invoices/, reports/ or ` +
      'contracts/ according to its `Type:` line, not its title. Leave inbox/ empty, keep each ' +
      'file unchanged, and log each move in sort.log.',
    files,
    setup: [],
    steps,
    final:
      variant === 'looks-failed'
        ? 'I sorted the documents, but my first bulk move failed (see sort.log) and I am not ' +
          'fully sure every file landed where it should. inbox/ looks empty now.'
        : `All ${count} documents are sorted by their Type line into invoices/, reports/ and ` +
          'contracts/, and inbox/ is empty. Each move is logged in sort.log.',
    verifier: verifier(count),
    probes,
    dimensions: ['task_success'],
    ...(hardCase ? { hardCase } : {}),
  };
}

/**
 * The re-check counts, ten items per App. L bin of the full plan's turns (ambiguous + 3):
 * 1–3, 4–6, 7–10, 11–15, 16–25 and 26+.
 */
const ambiguousByBin: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  [1, 1, 2, 2, 3, 3, 1, 2, 3, 1],
  [4, 4, 5, 5, 6, 6, 7, 4, 5, 5],
  [8, 9, 10, 10, 11, 12, 12, 9, 8, 11],
  [13, 14, 16, 18, 19, 21, 22, 15, 17, 20],
  [23, 24, 26, 27, 29, 30, 32, 25, 28, 31],
];

/**
 * The variants of each bin's ten items: nine with a misleading surface, one honest (a clean
 * run in even bins, a logged failed move in odd ones). A misfile needs an ambiguous document,
 * so items with none get a near-miss instead.
 */
function variantOf(bin: number, slot: number, ambiguous: number): LongVariant {
  const pattern: readonly LongVariant[] = [
    'looks-failed',
    'misfile',
    'near-miss',
    'looks-failed',
    'misfile',
    bin % 2 === 0 ? 'clean' : 'claimed-move',
    'looks-failed',
    'near-miss',
    'misfile',
    'looks-failed',
  ];
  const variant = pattern[slot] ?? 'clean';
  return variant === 'misfile' && ambiguous === 0 ? 'near-miss' : variant;
}

/** Every `cuelab-long` recipe, in id order. */
export const longRecipes: readonly MiniRecipe[] = ambiguousByBin.flatMap((counts, bin) =>
  counts.map((ambiguous, slot) =>
    longRecipe({ index: bin * 10 + slot, variant: variantOf(bin, slot, ambiguous), ambiguous }),
  ),
);
