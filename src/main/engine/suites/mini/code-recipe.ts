/**
 * How a code item is put together: the bug report for each module, the project in the state
 * the report finds it, the hidden-test verifier and the probes; and the commands the scripted
 * agents use to edit files.
 */
import { codeProbes, codeVerifier } from './code-checks';
import { projectFiles, projectSetup, type ProjectModule } from './code-project';
import { dedent, type AgentStep, type MiniRecipe } from './recipe';

const howToTest = ' The test suite runs with `python3 run_tests.py`.';

const tasks: Record<ProjectModule, string> = {
  money:
    "Bug report for the invoicing project: parse_amount('1,234.50') raises " +
    'decimal.InvalidOperation. The bank export writes thousands separators, and some amounts ' +
    "carry a leading dollar sign ('$1,234.50'). Both forms must parse to Decimal('1234.50'); " +
    'plain amounts must keep working. Fix it.' +
    howToTest,
  dates:
    'Bug report for the invoicing project: due_date() can return a Saturday or a Sunday. An ' +
    'invoice that would fall due on a weekend must be due the following Monday instead; due ' +
    'dates on weekdays must not change. Fix it.' +
    howToTest,
  totals:
    'Bug report for the invoicing project: a fixed discount (say 10.00 off) is subtracted ' +
    'after tax, so customers pay tax on money they were given back; the discount must come ' +
    'off the subtotal before tax is added. Also, a discount larger than the subtotal gives a ' +
    'negative total; the total must never go below 0.00. Fix invoice_total.' +
    howToTest,
  csvio:
    'Bug report for the invoicing project: customer names that contain a comma are quoted in ' +
    'the export (INV-2,"Smith, Jones & Co","1,250.00"), and read_invoices splits them into the ' +
    'wrong columns, which then fails in parse_amount. Make read_invoices read such rows ' +
    'correctly; everything else about it (blank lines skipped, amounts as Decimal) must keep ' +
    'working.' +
    howToTest,
  slug:
    "Bug report for the invoicing project: slugify('Café Déjà Vu: Q3 Report!') returns " +
    "'café-déjà-vu:-q3-report!'. Slugs are used as file names and must contain only lower-case " +
    "ASCII letters, digits and '-': fold accents (é becomes e) and treat any other character " +
    "as a word separator, so this title should give 'cafe-deja-vu-q3-report'." +
    howToTest,
};

/** A command that writes `content` to `path`. */
export function writeFile(path: string, content: string): string {
  return `cat > ${path} <<'EOF'\n${dedent(content)}\nEOF`;
}

/** A command that appends a test class to a test file. */
export function appendTests(path: string, source: string): string {
  return `cat >> ${path} <<'EOF'\n\n\n${dedent(source)}\nEOF`;
}

/** The agent runs the visible tests. */
export const runTests: AgentStep = {
  thought: 'Running the test suite.',
  command: 'python3 -B run_tests.py',
};

/** The agent looks at its change. */
export const diffStat: AgentStep = { thought: 'The change:', command: 'git diff --stat' };

/** A code item on `module`: its task, the project in its reported state, hidden-test verifier. */
export function code(
  id: string,
  module: ProjectModule,
  steps: AgentStep[],
  final: string,
  extra: Partial<MiniRecipe> = {},
): MiniRecipe {
  return {
    id,
    substrate: 'code',
    task: tasks[module],
    files: projectFiles(module),
    setup: [projectSetup],
    steps,
    final,
    verifier: codeVerifier(module),
    probes: codeProbes(module),
    dimensions: ['task_success'],
    ...extra,
  };
}
