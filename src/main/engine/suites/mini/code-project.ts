/**
 * The small Python project the code items start from (`invoicing`), in the state each bug
 * report finds it: every module correct but the one the report is about. The hidden tests live
 * in the verifiers (code-checks.ts), never in the agent's working tree.
 */
import { dedent } from './recipe';

const money = {
  fixed: `
    """Parsing and formatting money amounts."""
    from decimal import Decimal


    def parse_amount(text):
        """Parse an amount such as '1234.50', '1,234.50' or '$1,234.50' into a Decimal."""
        return Decimal(text.strip().lstrip('$').replace(',', ''))


    def format_amount(value):
        """Format a Decimal with thousands separators and two decimals: '1,234.50'."""
        return f'{value:,.2f}'
  `,
  buggy: `
    """Parsing and formatting money amounts."""
    from decimal import Decimal


    def parse_amount(text):
        """Parse an amount such as '1234.50' into a Decimal."""
        return Decimal(text.strip())


    def format_amount(value):
        """Format a Decimal with thousands separators and two decimals: '1,234.50'."""
        return f'{value:,.2f}'
  `,
};

const dates = {
  fixed: `
    """Due dates of invoices."""
    from datetime import timedelta


    def due_date(issued, terms_days):
        """terms_days calendar days after issued, moved to the next Monday from a weekend."""
        due = issued + timedelta(days=terms_days)
        while due.weekday() >= 5:
            due += timedelta(days=1)
        return due
  `,
  buggy: `
    """Due dates of invoices."""
    from datetime import timedelta


    def due_date(issued, terms_days):
        """The date an invoice is due: terms_days calendar days after it was issued."""
        return issued + timedelta(days=terms_days)
  `,
};

const totals = {
  fixed: `
    """Invoice totals."""
    from decimal import ROUND_HALF_UP, Decimal

    TAX_RATE = Decimal('0.20')
    CENT = Decimal('0.01')


    def invoice_total(subtotal, discount=Decimal('0')):
        """Total due: the subtotal less a fixed discount (never below zero), plus tax."""
        taxable = max(subtotal - discount, Decimal('0'))
        return (taxable * (1 + TAX_RATE)).quantize(CENT, rounding=ROUND_HALF_UP)
  `,
  buggy: `
    """Invoice totals."""
    from decimal import ROUND_HALF_UP, Decimal

    TAX_RATE = Decimal('0.20')
    CENT = Decimal('0.01')


    def invoice_total(subtotal, discount=Decimal('0')):
        """Total due: the subtotal plus tax, less a fixed discount."""
        total = subtotal * (1 + TAX_RATE) - discount
        return total.quantize(CENT, rounding=ROUND_HALF_UP)
  `,
};

const csvio = {
  fixed: `
    """Reading the invoices export."""
    import csv

    from .money import parse_amount


    def read_invoices(path):
        """Rows of an invoices CSV (number,customer,amount) as dicts; amount as a Decimal."""
        rows = []
        with open(path, newline='') as handle:
            for row in csv.DictReader(handle):
                row['amount'] = parse_amount(row['amount'])
                rows.append(row)
        return rows
  `,
  buggy: `
    """Reading the invoices export."""
    from .money import parse_amount


    def read_invoices(path):
        """Rows of an invoices CSV (number,customer,amount) as dicts; amount as a Decimal."""
        rows = []
        with open(path, newline='') as handle:
            header = handle.readline().strip().split(',')
            for line in handle:
                if not line.strip():
                    continue
                row = dict(zip(header, line.strip().split(',')))
                row['amount'] = parse_amount(row['amount'])
                rows.append(row)
        return rows
  `,
};

const slug = {
  fixed: `
    """File-name slugs for invoice titles."""
    import re
    import unicodedata


    def slugify(title):
        """A file-name-safe slug: ASCII letters and digits, lower case, words joined by '-'."""
        folded = unicodedata.normalize('NFKD', title).encode('ascii', 'ignore').decode('ascii')
        return re.sub(r'[^a-z0-9]+', '-', folded.lower()).strip('-')
  `,
  buggy: `
    """File-name slugs for invoice titles."""


    def slugify(title):
        """A file-name-safe slug of title: lower case, words joined by '-'."""
        return '-'.join(title.lower().split())
  `,
};

const modules = { money, dates, totals, csvio, slug };

/** A module of the project that a bug report is about. */
export type ProjectModule = keyof typeof modules;

const visibleTests: Record<string, string> = {
  'tests/__init__.py': '',
  'tests/test_money.py': `
    import unittest
    from decimal import Decimal

    from invoicing.money import format_amount, parse_amount


    class MoneyTests(unittest.TestCase):
        def test_parse_plain(self):
            self.assertEqual(parse_amount('12.50'), Decimal('12.50'))

        def test_format(self):
            self.assertEqual(format_amount(Decimal('1234.5')), '1,234.50')
  `,
  'tests/test_dates.py': `
    import unittest
    from datetime import date

    from invoicing.dates import due_date


    class DueDateTests(unittest.TestCase):
        def test_due_on_issue_day(self):
            self.assertEqual(due_date(date(2024, 1, 1), 0), date(2024, 1, 1))
  `,
  'tests/test_totals.py': `
    import unittest
    from decimal import Decimal

    from invoicing.totals import invoice_total


    class TotalTests(unittest.TestCase):
        def test_tax_added(self):
            self.assertEqual(invoice_total(Decimal('100.00')), Decimal('120.00'))
  `,
  'tests/test_csvio.py': `
    import unittest

    from invoicing.csvio import read_invoices


    class ReadInvoicesTests(unittest.TestCase):
        def test_reads_every_row(self):
            self.assertEqual(len(read_invoices('tests/fixtures/invoices.csv')), 3)

        def test_customers(self):
            rows = read_invoices('tests/fixtures/invoices.csv')
            self.assertEqual([row['customer'] for row in rows], ['Acme Ltd', 'Globex', 'Initech'])
  `,
  'tests/test_slug.py': `
    import unittest

    from invoicing.slug import slugify


    class SlugTests(unittest.TestCase):
        def test_words_joined(self):
            self.assertEqual(slugify('Monthly Report'), 'monthly-report')
  `,
};

// Prints one line per test and no timings, so a run's output is the same every time.
const runTests = `
  """Runs the test suite: one line per test, then a summary; exits 1 on any failure."""
  import sys
  import unittest


  class Result(unittest.TestResult):
      def addSuccess(self, test):
          super().addSuccess(test)
          print('ok     ', test.id())

      def addFailure(self, test, err):
          super().addFailure(test, err)
          print('FAIL   ', test.id(), '-', err[1])

      def addError(self, test, err):
          super().addError(test, err)
          print('ERROR  ', test.id(), '-', err[0].__name__, err[1])


  result = Result()
  unittest.defaultTestLoader.discover('tests', top_level_dir='.').run(result)
  print('%d tests, %d failures, %d errors' % (result.testsRun, len(result.failures), len(result.errors)))
  sys.exit(0 if result.wasSuccessful() else 1)
`;

/** The project's files with `buggy` in its reported state and every other module correct. */
export function projectFiles(buggy: ProjectModule): Record<string, string> {
  const files: Record<string, string> = {
    '.gitignore': '__pycache__/\n',
    'README.md': '# invoicing\n\nRun the tests with `python3 run_tests.py`.\n',
    'run_tests.py': `${dedent(runTests)}\n`,
    'invoicing/__init__.py': '"""Invoicing helpers."""\n',
    'tests/fixtures/invoices.csv':
      'number,customer,amount\nINV-001,Acme Ltd,120.00\nINV-002,Globex,75.50\n\nINV-003,Initech,300.00\n',
  };
  for (const [name, variants] of Object.entries(modules)) {
    files[`invoicing/${name}.py`] = `${dedent(name === buggy ? variants.buggy : variants.fixed)}\n`;
  }
  for (const [path, source] of Object.entries(visibleTests)) {
    files[path] = source ? `${dedent(source)}\n` : '';
  }
  return files;
}

/** The correct source of a module, as a fix would write it. */
export function fixedModule(name: ProjectModule): string {
  return dedent(modules[name].fixed);
}

/** Commits the starting state (fixed dates, so every run makes the same commit). */
export const projectSetup =
  "export GIT_AUTHOR_DATE='2024-05-01T12:00:00Z' GIT_COMMITTER_DATE='2024-05-01T12:00:00Z' && " +
  'git -c init.defaultBranch=main init -q && git add -A && ' +
  "git -c user.name='Invoicing Dev' -c user.email=dev@invoicing.invalid commit -qm 'Import invoicing'";
