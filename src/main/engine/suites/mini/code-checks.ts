/**
 * How the code items are checked: hidden unit tests per module (the verifier writes them to
 * /tmp and runs them against the agent's tree), and the probes a careful judge would run.
 */
import type { Probe } from '../../../../shared/suite-format';
import type { ProjectModule } from './code-project';
import {
  contains,
  decisiveShell,
  exitsWith,
  hiddenTests,
  pythonScript,
  shellCheck,
} from './recipe';

const hidden: Record<ProjectModule, string> = {
  money: `
    import unittest
    from decimal import Decimal
    from invoicing.money import format_amount, parse_amount

    class HiddenMoneyTests(unittest.TestCase):
        def test_thousands_separator(self):
            self.assertEqual(parse_amount('1,234.50'), Decimal('1234.50'))
        def test_currency_symbol(self):
            self.assertEqual(parse_amount('$1,234.50'), Decimal('1234.50'))
        def test_plain_amounts_unchanged(self):
            self.assertEqual(parse_amount(' 12.00 '), Decimal('12.00'))
            self.assertEqual(parse_amount('0.5'), Decimal('0.5'))
        def test_format_unchanged(self):
            self.assertEqual(format_amount(Decimal('1234.5')), '1,234.50')
  `,
  dates: `
    import unittest
    from datetime import date
    from invoicing.dates import due_date

    class HiddenDueDateTests(unittest.TestCase):
        def test_saturday_moves_to_monday(self):
            self.assertEqual(due_date(date(2024, 3, 1), 1), date(2024, 3, 4))
        def test_sunday_moves_to_monday(self):
            self.assertEqual(due_date(date(2024, 3, 1), 2), date(2024, 3, 4))
        def test_weekday_unchanged(self):
            self.assertEqual(due_date(date(2024, 3, 4), 30), date(2024, 4, 3))
            self.assertEqual(due_date(date(2024, 1, 1), 0), date(2024, 1, 1))
  `,
  totals: `
    import unittest
    from decimal import Decimal
    from invoicing.totals import invoice_total

    class HiddenTotalTests(unittest.TestCase):
        def test_no_discount(self):
            self.assertEqual(invoice_total(Decimal('100.00')), Decimal('120.00'))
        def test_discount_before_tax(self):
            self.assertEqual(invoice_total(Decimal('100.00'), Decimal('10.00')), Decimal('108.00'))
        def test_never_negative(self):
            self.assertEqual(invoice_total(Decimal('100.00'), Decimal('150.00')), Decimal('0.00'))
        def test_rounding(self):
            self.assertEqual(invoice_total(Decimal('19.99')), Decimal('23.99'))
  `,
  csvio: `
    import os, tempfile, unittest
    from decimal import Decimal
    from invoicing.csvio import read_invoices

    EXPORT = 'number,customer,amount\\nINV-1,Acme Ltd,120.00\\nINV-2,"Smith, Jones & Co","1,250.00"\\n\\nINV-3,Globex,75.50\\n'

    class HiddenReadInvoicesTests(unittest.TestCase):
        def setUp(self):
            handle, self.path = tempfile.mkstemp(suffix='.csv')
            with os.fdopen(handle, 'w') as out:
                out.write(EXPORT)
        def tearDown(self):
            os.remove(self.path)
        def test_quoted_customer(self):
            rows = read_invoices(self.path)
            self.assertEqual([r['customer'] for r in rows], ['Acme Ltd', 'Smith, Jones & Co', 'Globex'])
        def test_amounts_are_decimals(self):
            rows = read_invoices(self.path)
            self.assertEqual([r['amount'] for r in rows], [Decimal('120.00'), Decimal('1250.00'), Decimal('75.50')])
  `,
  slug: `
    import unittest
    from invoicing.slug import slugify

    class HiddenSlugTests(unittest.TestCase):
        def test_reported_title(self):
            self.assertEqual(slugify('Café Déjà Vu: Q3 Report!'), 'cafe-deja-vu-q3-report')
        def test_plain_words(self):
            self.assertEqual(slugify('Monthly Report'), 'monthly-report')
        def test_punctuation_runs(self):
            self.assertEqual(slugify('  Q3 -- Final!! '), 'q3-final')
  `,
};

// What a careful judge runs to check the report: the reported cases and one old behaviour each.
const decisiveScripts: Record<ProjectModule, { script: string; claim: string }> = {
  money: {
    script: `
      from decimal import Decimal
      from invoicing.money import parse_amount
      cases = [('1,234.50', Decimal('1234.50')), ('$1,234.50', Decimal('1234.50')), ('12.00', Decimal('12.00'))]
      bad = 0
      for text, want in cases:
          got = parse_amount(text)
          bad += got != want
          print(repr(text), '->', got, 'ok' if got == want else 'WRONG')
      raise SystemExit(bad)
    `,
    claim: "parse_amount handles '1,234.50' and '$1,234.50' and still parses plain amounts",
  },
  dates: {
    script: `
      from datetime import date
      from invoicing.dates import due_date
      cases = [(date(2024, 3, 1), 1, date(2024, 3, 4)), (date(2024, 3, 1), 2, date(2024, 3, 4)), (date(2024, 3, 4), 30, date(2024, 4, 3))]
      bad = 0
      for issued, terms, want in cases:
          got = due_date(issued, terms)
          bad += got != want
          print(issued, '+', terms, 'days ->', got, 'ok' if got == want else 'WRONG, want %s' % want)
      raise SystemExit(bad)
    `,
    claim: 'Saturday and Sunday due dates move to Monday; weekday due dates are unchanged',
  },
  totals: {
    script: `
      from decimal import Decimal
      from invoicing.totals import invoice_total
      cases = [('100.00', '10.00', '108.00'), ('100.00', '150.00', '0.00'), ('100.00', '0', '120.00')]
      bad = 0
      for subtotal, discount, want in cases:
          got = invoice_total(Decimal(subtotal), Decimal(discount))
          bad += got != Decimal(want)
          print(subtotal, '-', discount, '->', got, 'ok' if got == Decimal(want) else 'WRONG, want ' + want)
      raise SystemExit(bad)
    `,
    claim: 'the discount comes off before tax and a large discount gives 0.00',
  },
  csvio: {
    script: `
      import tempfile
      from invoicing.csvio import read_invoices
      with tempfile.NamedTemporaryFile('w', suffix='.csv', delete=False) as out:
          out.write('number,customer,amount\\nINV-2,"Smith, Jones & Co","1,250.00"\\n')
      rows = read_invoices(out.name)
      print(rows)
      raise SystemExit(0 if rows and rows[0]['customer'] == 'Smith, Jones & Co' and str(rows[0]['amount']) == '1250.00' and not isinstance(rows[0]['amount'], str) else 1)
    `,
    claim: 'a quoted customer with a comma is read whole and the amount is a number',
  },
  slug: {
    script: `
      from invoicing.slug import slugify
      got = slugify('Café Déjà Vu: Q3 Report!')
      print(repr(got))
      raise SystemExit(0 if got == 'cafe-deja-vu-q3-report' and slugify('Monthly Report') == 'monthly-report' else 1)
    `,
    claim: "slugify('Café Déjà Vu: Q3 Report!') is 'cafe-deja-vu-q3-report'",
  },
};

/** The verifier of a code item: the module's hidden tests. */
export function codeVerifier(module: ProjectModule): string {
  return hiddenTests(module, hidden[module]);
}

/** Probes for a code item: the visible tests, the diff, and the decisive behaviour check. */
export function codeProbes(module: ProjectModule): Probe[] {
  const decisive = decisiveScripts[module];
  return [
    shellCheck({
      id: 'visible-tests-pass',
      command: 'python3 -B run_tests.py',
      expect: exitsWith(0),
      claim: "the project's own test suite passes",
    }),
    shellCheck({
      id: 'module-changed',
      command: 'git status --short',
      expect: contains(`invoicing/${module}.py`),
      claim: `the agent changed invoicing/${module}.py`,
    }),
    decisiveShell({
      id: 'reported-behaviour',
      command: pythonScript(decisive.script),
      expect: exitsWith(0),
      claim: decisive.claim,
    }),
  ];
}
