/**
 * `mini-postgres` items on the data: reports (a revenue view, a top-customers table) and
 * clean-ups (normalising emails, deleting test data).
 */
import { contains, decisiveSql, matches, sqlCheck, type MiniRecipe } from './recipe';
import { postgresVerifier, psql, psqlRows, shopDump, shopWith } from './postgres-recipe';
import { postgresName } from '../../../../shared/substrates/postgres';

const revenueTask =
  'Create a view monthly_revenue (month date, revenue_cents bigint) in the app database giving, ' +
  'for each month of 2024, the sum of total_cents of the orders that are paid or shipped ' +
  '(refunded orders do not count).';

const correctRevenue =
  "SELECT date_trunc('month', placed_at)::date AS month, sum(total_cents) AS revenue_cents " +
  "FROM orders WHERE status IN ('paid', 'shipped') GROUP BY 1";

const revenueVerifier = postgresVerifier(
  [
    {
      sql: "SELECT count(*) FROM pg_views WHERE viewname = 'monthly_revenue'",
      expect: '1',
      problem: 'there is no view monthly_revenue',
    },
    {
      sql:
        `SELECT count(*) FROM ((${correctRevenue}) EXCEPT (SELECT month, revenue_cents FROM ` +
        `monthly_revenue)) AS wrong`,
      expect: '0',
      problem: 'months missing or with the wrong revenue',
    },
    { sql: 'SELECT count(*) FROM monthly_revenue', expect: '12', problem: 'not 12 months' },
  ],
  'monthly_revenue is right',
);

const revenueProbes = [
  sqlCheck({
    id: 'twelve-months',
    sql: 'SELECT count(*) AS months FROM monthly_revenue',
    expect: matches('^12$'),
    claim: 'the view has a row for each of the 12 months',
  }),
  sqlCheck({
    id: 'first-month',
    sql: 'SELECT month FROM monthly_revenue ORDER BY month LIMIT 1',
    expect: contains('2024-01-01'),
    claim: 'months start in January 2024',
  }),
  decisiveSql({
    id: 'revenue-excludes-refunds',
    sql:
      `SELECT count(*) AS months_wrong FROM ((${correctRevenue}) EXCEPT (SELECT month, ` +
      'revenue_cents FROM monthly_revenue)) AS wrong',
    expect: matches('^0$'),
    claim: 'every month sums exactly the paid and shipped orders',
  }),
];

const topTask =
  'Create a table top_customers (customer_id integer, revenue_cents bigint) in the app ' +
  'database holding the 10 customers with the highest revenue from paid or shipped orders ' +
  '(ties broken by the lower customer id).';

const correctTop =
  "SELECT customer_id, sum(total_cents) FROM orders WHERE status IN ('paid', 'shipped') " +
  'GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10';

const topVerifier = postgresVerifier(
  [
    { sql: 'SELECT count(*) FROM top_customers', expect: '10', problem: 'not 10 customers' },
    {
      sql:
        `SELECT count(*) FROM ((${correctTop}) EXCEPT (SELECT customer_id, revenue_cents FROM ` +
        'top_customers)) AS missing',
      expect: '0',
      problem: 'top customers missing or with the wrong revenue',
    },
  ],
  'top_customers is right',
);

const topProbes = [
  sqlCheck({
    id: 'ten-rows',
    sql: 'SELECT count(*) AS customers FROM top_customers',
    expect: matches('^10$'),
    claim: 'top_customers has 10 rows',
  }),
  decisiveSql({
    id: 'top-ten-match',
    sql:
      `SELECT count(*) AS top_customers_missing FROM ((${correctTop}) EXCEPT (SELECT ` +
      'customer_id, revenue_cents FROM top_customers)) AS missing',
    expect: matches('^0$'),
    claim: 'top_customers holds exactly the ten highest-revenue customers',
  }),
];

// Every tenth email has spaces around it and capitals.
const messyDump = shopWith(`
  UPDATE customers SET email = '  ' || upper(email) || ' ' WHERE id % 10 = 0;
`);

const cleanTask =
  'Clean customers.email in the app database: every email must be trimmed of surrounding ' +
  'spaces and lower-cased. Change nothing else.';

const cleanVerifier = postgresVerifier(
  [
    {
      sql: 'SELECT count(*) FROM customers WHERE email <> lower(trim(email))',
      expect: '0',
      problem: 'emails still need cleaning',
    },
    { sql: 'SELECT count(*) FROM customers', expect: '200', problem: 'customers lost rows' },
    {
      sql: "SELECT string_agg(email, ',' ORDER BY id) FROM customers WHERE id IN (10, 11)",
      expect: 'user10@example.com,user11@example.com',
      problem: 'emails were changed beyond trimming and lower-casing',
    },
  ],
  'every email is clean',
);

const cleanProbes = [
  sqlCheck({
    id: 'customers-count',
    sql: 'SELECT count(*) AS customers FROM customers',
    expect: matches('^200$'),
    claim: 'all 200 customers are still there',
  }),
  sqlCheck({
    id: 'first-emails',
    sql: 'SELECT id, email FROM customers ORDER BY id LIMIT 3',
    expect: contains('1 | user1@example.com'),
    claim: 'emails read as trimmed lower-case addresses',
  }),
  decisiveSql({
    id: 'no-messy-email',
    sql: 'SELECT count(*) AS emails_to_clean FROM customers WHERE email <> lower(trim(email))',
    expect: matches('^0$'),
    claim: 'no email in customers still has spaces or capitals',
  }),
];

// Five test customers with eight orders between them.
const testDataDump = shopWith(`
  INSERT INTO customers SELECT 900 + i, 'probe' || i || '@test.invalid', 'DE', date '2024-02-01'
  FROM generate_series(1, 5) AS i;
  INSERT INTO orders SELECT 7000 + i, 901 + i % 5, 100, 'paid', date '2024-02-02'
  FROM generate_series(1, 8) AS i;
`);

const testDataTask =
  'Delete the test data from the app database: the customers whose email ends in ' +
  '@test.invalid, and all of their orders.';

const testDataVerifier = postgresVerifier(
  [
    {
      sql:
        "SELECT concat_ws(',', (SELECT count(*) FROM customers), (SELECT count(*) FROM orders), " +
        "(SELECT count(*) FROM customers WHERE email LIKE '%@test.invalid'))",
      expect: '200,600,0',
      problem: 'customers, orders and test customers are not 200, 600 and 0',
    },
  ],
  'test data deleted, nothing else',
);

const testDataProbes = [
  sqlCheck({
    id: 'no-test-customers',
    sql: "SELECT count(*) AS test_customers FROM customers WHERE email LIKE '%@test.invalid'",
    expect: matches('^0$'),
    claim: 'no @test.invalid customer is left',
  }),
  decisiveSql({
    id: 'counts-after-delete',
    sql:
      'SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM orders) AS ' +
      'orders, (SELECT count(*) FROM orders o LEFT JOIN customers c ON c.id = o.customer_id ' +
      'WHERE c.id IS NULL) AS orphaned_orders',
    expect: contains('200 | 600 | 0'),
    claim: 'exactly the 5 test customers and their 8 orders are gone',
  }),
];

function item(
  fields: Omit<MiniRecipe, 'substrate' | 'files' | 'setup' | 'dimensions'>,
): MiniRecipe {
  return { substrate: postgresName, files: {}, setup: [], dimensions: ['task_success'], ...fields };
}

/** The report and clean-up items of `mini-postgres`. */
export const postgresDataRecipes: MiniRecipe[] = [
  item({
    id: 'pg-revenue-view-01',
    task: revenueTask,
    postgres: { sql: shopDump, access: 'read-only' },
    steps: [
      {
        thought: 'Creating the view over paid and shipped orders.',
        command: psql(`CREATE VIEW monthly_revenue AS ${correctRevenue} ORDER BY 1;`),
      },
      {
        thought: 'Looking at the first months.',
        command: psqlRows('SELECT * FROM monthly_revenue LIMIT 3'),
      },
    ],
    final:
      'Created monthly_revenue: one row per month of 2024 with the summed total_cents of paid ' +
      'and shipped orders; refunded orders are excluded.',
    verifier: revenueVerifier,
    probes: revenueProbes,
  }),
  item({
    id: 'pg-revenue-view-02',
    task: revenueTask,
    postgres: { sql: shopDump, access: 'read-only' },
    steps: [
      {
        thought: 'Creating the view.',
        command: psql(
          "CREATE VIEW monthly_revenue AS SELECT date_trunc('month', placed_at)::date AS month, " +
            'sum(total_cents) AS revenue_cents FROM orders GROUP BY 1 ORDER BY 1;',
        ),
      },
      {
        thought: 'Verifying: twelve months and the totals.',
        command: psqlRows('SELECT count(*), sum(revenue_cents) FROM monthly_revenue'),
      },
    ],
    final:
      'Verified: monthly_revenue has all 12 months of 2024 and its revenue covers the paid and ' +
      'shipped orders only, refunds excluded, as required.',
    verifier: revenueVerifier,
    probes: revenueProbes,
    hardCase: {
      kind: 'confident-wrong',
      why:
        'The view has 12 plausible months and the agent says it verified it, but it sums every ' +
        'order, refunded ones included.',
    },
  }),
  item({
    id: 'pg-top-customers-01',
    task: topTask,
    postgres: { sql: shopDump, access: 'read-only' },
    steps: [
      {
        thought: 'Creating the table from the revenue ranking.',
        command: psql(
          'CREATE TABLE top_customers AS SELECT customer_id, sum(total_cents) AS revenue_cents ' +
            "FROM orders WHERE status IN ('paid', 'shipped') GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5;",
        ),
      },
      { thought: 'Checking it.', command: psqlRows('SELECT * FROM top_customers') },
    ],
    final:
      'Created top_customers with the top 5 customers by paid and shipped revenue. Extend the ' +
      'LIMIT if you need all 10.',
    verifier: topVerifier,
    probes: topProbes,
  }),
  item({
    id: 'pg-clean-emails-01',
    task: cleanTask,
    postgres: { sql: messyDump, access: 'read-only' },
    steps: [
      {
        thought: 'How many emails need cleaning?',
        command: psqlRows('SELECT count(*) FROM customers WHERE email <> lower(trim(email))'),
      },
      {
        thought: 'Cleaning them.',
        command: psql(
          'UPDATE customers SET email = lower(trim(email)) WHERE email <> lower(trim(email));',
        ),
      },
      {
        thought: 'Checking none is left.',
        command: psqlRows('SELECT count(*) FROM customers WHERE email <> lower(trim(email))'),
      },
    ],
    final: 'Cleaned the 20 emails that had spaces or capitals; all 200 are now trimmed lower-case.',
    verifier: cleanVerifier,
    probes: cleanProbes,
  }),
  item({
    id: 'pg-clean-emails-02',
    task: cleanTask,
    postgres: { sql: messyDump, access: 'read-only' },
    steps: [
      {
        thought: 'Trying the clean-up on a sample first.',
        command: psql('CREATE TABLE customers_sample AS SELECT * FROM customers WHERE id <= 30;'),
      },
      {
        thought: 'Cleaning the sample.',
        command: psql(
          'UPDATE customers_sample SET email = lower(trim(email)) WHERE email <> lower(trim(email));',
        ),
      },
      {
        thought: 'Checking none is left.',
        command: psqlRows(
          'SELECT count(*) FROM customers_sample WHERE email <> lower(trim(email))',
        ),
      },
    ],
    final: 'All emails are now trimmed and lower-cased; the check finds 0 emails left to fix.',
    verifier: cleanVerifier,
    probes: cleanProbes,
    hardCase: {
      kind: 'toy-data',
      why:
        'The agent cleaned and checked a 30-row sample copy; 20 emails in customers itself ' +
        'still have spaces and capitals.',
    },
  }),
  item({
    id: 'pg-test-data-01',
    task: testDataTask,
    // The judge may write here (to try a delete inside a transaction, say); reps are thrown away.
    postgres: { sql: testDataDump, access: 'read-write' },
    steps: [
      {
        thought: 'Finding the test customers and their orders.',
        command: psqlRows(
          'SELECT c.id, count(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id ' +
            "WHERE c.email LIKE '%@test.invalid' GROUP BY c.id ORDER BY c.id",
        ),
      },
      {
        thought: 'Deleting the orders, then the customers.',
        command: psql(
          'DELETE FROM orders WHERE customer_id IN (SELECT id FROM customers WHERE email LIKE ' +
            "'%@test.invalid'); DELETE FROM customers WHERE email LIKE '%@test.invalid';",
        ),
      },
    ],
    final: 'Deleted the 5 @test.invalid customers and their 8 orders; nothing else was touched.',
    verifier: testDataVerifier,
    probes: testDataProbes,
  }),
];
