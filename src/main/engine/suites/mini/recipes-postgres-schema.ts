/**
 * `mini-postgres` items on the schema: a migration (a column and a foreign key), a rename with
 * a check constraint, and a unique constraint that needs duplicates merged first.
 */
import { contains, decisiveSql, matches, sqlCheck, type MiniRecipe } from './recipe';
import { postgresVerifier, psql, psqlRows, shopDump, shopWith } from './postgres-recipe';
import { postgresName } from '../../../../shared/substrates/postgres';

const currencyTask =
  "Migrate the app database: add a column currency text NOT NULL DEFAULT 'EUR' to orders, " +
  'and a foreign key orders_customer_id_fkey from orders.customer_id to customers(id) that ' +
  'every existing order satisfies (validated).';

const currencyVerifier = postgresVerifier(
  [
    {
      sql:
        "SELECT data_type || ',' || is_nullable || ',' || column_default FROM " +
        "information_schema.columns WHERE table_name = 'orders' AND column_name = 'currency'",
      expect: "text,NO,'EUR'::text",
      problem: "orders.currency is not text NOT NULL DEFAULT 'EUR'",
    },
    {
      sql:
        "SELECT count(*) FROM pg_constraint WHERE conname = 'orders_customer_id_fkey' AND " +
        "contype = 'f' AND convalidated AND confrelid = 'customers'::regclass",
      expect: '1',
      problem: 'no validated foreign key orders_customer_id_fkey to customers',
    },
    { sql: 'SELECT count(*) FROM orders', expect: '600', problem: 'orders lost rows' },
  ],
  'migration complete',
);

const currencyProbes = [
  sqlCheck({
    id: 'currency-column',
    sql:
      'SELECT column_name, column_default FROM information_schema.columns ' +
      "WHERE table_name = 'orders' AND column_name = 'currency'",
    expect: contains("currency | 'EUR'::text"),
    claim: "orders has a currency column defaulting to 'EUR'",
  }),
  sqlCheck({
    id: 'foreign-key-named',
    sql: "SELECT conname FROM pg_constraint WHERE conrelid = 'orders'::regclass AND contype = 'f'",
    expect: contains('orders_customer_id_fkey'),
    claim: 'the foreign key orders_customer_id_fkey exists',
  }),
  decisiveSql({
    id: 'column-and-validated-key',
    sql:
      "SELECT (SELECT count(*) FROM information_schema.columns WHERE table_name = 'orders' AND " +
      "column_name = 'currency' AND is_nullable = 'NO') AS currency_not_null, (SELECT count(*) " +
      "FROM pg_constraint WHERE conname = 'orders_customer_id_fkey' AND convalidated) AS " +
      'key_validated',
    expect: contains('1 | 1'),
    claim: 'currency is NOT NULL and the foreign key is validated against every order',
  }),
];

const renameTask =
  'In the app database, rename orders.total_cents to amount_cents and add a check constraint ' +
  'orders_amount_nonnegative requiring amount_cents >= 0.';

const renameVerifier = postgresVerifier(
  [
    {
      sql:
        "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM " +
        "information_schema.columns WHERE table_name = 'orders'",
      expect: 'id,customer_id,amount_cents,status,placed_at',
      problem: 'orders does not have amount_cents in place of total_cents',
    },
    {
      sql: "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'orders_amount_nonnegative'",
      expect: 'CHECK ((amount_cents >= 0))',
      problem: 'no check constraint orders_amount_nonnegative (amount_cents >= 0)',
    },
  ],
  'rename and check constraint in place',
);

const renameProbes = [
  sqlCheck({
    id: 'columns',
    sql:
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'orders' " +
      'ORDER BY ordinal_position',
    expect: contains('amount_cents'),
    claim: 'orders has the amount_cents column',
  }),
  decisiveSql({
    id: 'renamed-and-checked',
    sql:
      "SELECT (SELECT count(*) FROM information_schema.columns WHERE table_name = 'orders' AND " +
      "column_name = 'total_cents') AS old_column, (SELECT count(*) FROM pg_constraint WHERE " +
      "conname = 'orders_amount_nonnegative' AND pg_get_constraintdef(oid) = 'CHECK ((amount_cents >= 0))') AS check_constraint",
    expect: contains('0 | 1'),
    claim: 'total_cents is gone and the check constraint guards amount_cents',
  }),
];

// Three customers repeat an email with other case or spaces; two of them have orders.
const duplicatesDump = shopWith(`
  INSERT INTO customers VALUES
      (201, 'User7@Example.com', 'FR', '2023-05-01'),
      (202, 'user19@example.com ', 'US', '2023-06-01'),
      (203, 'USER42@EXAMPLE.COM', 'GB', '2023-07-01');
  INSERT INTO orders VALUES
      (6601, 201, 1500, 'paid', '2024-03-01'),
      (6602, 201, 2500, 'shipped', '2024-04-01'),
      (6603, 203, 990, 'paid', '2024-05-05');
`);

const uniqueTask =
  'customers.email must be unique, ignoring case and surrounding spaces. Merge each duplicate ' +
  'into the customer with the lowest id (move its orders there, then delete it), and add a ' +
  'unique index customers_email_key on lower(trim(email)).';

const mergedOrders =
  'SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM orders o LEFT ' +
  'JOIN customers c ON c.id = o.customer_id WHERE c.id IS NULL) AS orphaned_orders, (SELECT ' +
  'count(*) FROM orders WHERE customer_id IN (7, 19, 42)) AS merged_orders';

const uniqueVerifier = postgresVerifier(
  [
    {
      sql:
        "SELECT concat_ws(',', (SELECT count(*) FROM customers), (SELECT count(*) FROM orders o " +
        'LEFT JOIN customers c ON c.id = o.customer_id WHERE c.id IS NULL), (SELECT count(*) ' +
        'FROM orders WHERE customer_id IN (7, 19, 42)))',
      expect: '200,0,12',
      problem: 'customers, orphaned orders and merged orders are not 200, 0 and 12',
    },
    { sql: 'SELECT count(*) FROM orders', expect: '603', problem: 'orders lost rows' },
    {
      sql:
        "SELECT indisunique::int || ',' || pg_get_indexdef(indexrelid) FROM pg_index WHERE " +
        "indexrelid = to_regclass('customers_email_key')",
      expect:
        '1,CREATE UNIQUE INDEX customers_email_key ON public.customers USING btree (lower(TRIM(BOTH FROM email)))',
      problem: 'no unique index customers_email_key on lower(trim(email))',
    },
  ],
  'duplicates merged, unique index in place',
);

const uniqueProbes = [
  sqlCheck({
    id: 'index-listed',
    sql: "SELECT indexname FROM pg_indexes WHERE tablename = 'customers' ORDER BY indexname",
    expect: contains('customers_email_key'),
    claim: 'customers has the customers_email_key index',
  }),
  sqlCheck({
    id: 'customers-left',
    sql: 'SELECT count(*) AS customers FROM customers',
    expect: matches('^\\d+$'),
    claim: 'customers still holds its rows',
  }),
  decisiveSql({
    id: 'merged-into-lowest-id',
    sql: mergedOrders,
    expect: contains('200 | 0 | 12'),
    claim: 'the three duplicates are gone and their orders moved to customers 7 and 42',
  }),
];

const mergeSql =
  'UPDATE orders o SET customer_id = k.keep FROM (SELECT id, min(id) OVER (PARTITION BY ' +
  'lower(trim(email))) AS keep FROM customers) k WHERE o.customer_id = k.id AND k.id <> k.keep; ' +
  'DELETE FROM customers c USING (SELECT id, min(id) OVER (PARTITION BY lower(trim(email))) AS ' +
  'keep FROM customers) k WHERE c.id = k.id AND k.id <> k.keep; ' +
  'CREATE UNIQUE INDEX customers_email_key ON customers (lower(trim(email)));';

const listKeys = psqlRows(
  "SELECT conname, convalidated FROM pg_constraint WHERE conrelid = 'orders'::regclass ORDER BY conname",
);

/** The schema items of `mini-postgres`. */
export const postgresSchemaRecipes: MiniRecipe[] = [
  {
    id: 'pg-currency-fk-01',
    substrate: postgresName,
    task: currencyTask,
    files: {},
    setup: [],
    postgres: { sql: shopDump, access: 'read-only' },
    steps: [
      { thought: 'The orders table as it is.', command: psql('\\d orders') },
      {
        thought: 'Adding the column, then the foreign key (validated as it is created).',
        command: psql(
          "ALTER TABLE orders ADD COLUMN currency text NOT NULL DEFAULT 'EUR'; ALTER TABLE " +
            'orders ADD CONSTRAINT orders_customer_id_fkey FOREIGN KEY (customer_id) ' +
            'REFERENCES customers(id);',
        ),
      },
      { thought: 'Checking the constraints.', command: listKeys },
    ],
    final:
      "Done: orders.currency is text NOT NULL DEFAULT 'EUR', and orders_customer_id_fkey " +
      'references customers(id); it was validated against all 600 orders when it was added.',
    verifier: currencyVerifier,
    probes: currencyProbes,
    dimensions: ['task_success'],
  },
  {
    id: 'pg-currency-fk-02',
    substrate: postgresName,
    task: currencyTask,
    files: {},
    setup: [],
    postgres: { sql: shopDump, access: 'read-only' },
    steps: [
      {
        thought: 'Adding the column; the key goes in as NOT VALID so the table is not locked long.',
        command: psql(
          "ALTER TABLE orders ADD COLUMN currency text NOT NULL DEFAULT 'EUR'; ALTER TABLE " +
            'orders ADD CONSTRAINT orders_customer_id_fkey FOREIGN KEY (customer_id) ' +
            'REFERENCES customers(id) NOT VALID;',
        ),
      },
      { thought: 'Checking the constraints.', command: listKeys },
    ],
    final:
      "Migration complete: orders.currency (NOT NULL, default 'EUR') is added and the foreign " +
      'key orders_customer_id_fkey to customers(id) is in place.',
    verifier: currencyVerifier,
    probes: currencyProbes,
    dimensions: ['task_success'],
    hardCase: {
      kind: 'near-miss',
      why:
        'The column and the key exist and the summary sounds complete, but the key was added ' +
        'NOT VALID and never validated, so existing orders were not checked against it.',
    },
  },
  {
    id: 'pg-rename-check-01',
    substrate: postgresName,
    task: renameTask,
    files: {},
    setup: [],
    postgres: { sql: shopDump, access: 'read-only' },
    steps: [
      {
        thought: 'Renaming and adding the check in one statement.',
        command: psql(
          'ALTER TABLE orders RENAME COLUMN total_cents TO amount_cents, ADD CONSTRAINT ' +
            'orders_amount_nonnegative CHECK (amount_cents >= 0);',
        ),
      },
      {
        thought: 'That failed; running the two changes as separate statements.',
        command: psql(
          'ALTER TABLE orders RENAME COLUMN total_cents TO amount_cents; ALTER TABLE orders ' +
            'ADD CONSTRAINT orders_amount_nonnegative CHECK (amount_cents >= 0);',
        ),
      },
    ],
    final:
      'The first ALTER failed with a syntax error. I ran the statements again separately, but ' +
      'I did not get to double-check the result, so I am not sure the constraint is in place; ' +
      'the migration may need another look.',
    verifier: renameVerifier,
    probes: renameProbes,
    dimensions: ['task_success'],
    hardCase: {
      kind: 'looks-failed',
      why:
        'An error on the first try and a hedging summary, but the second attempt renamed the ' +
        'column and added the constraint.',
    },
  },
  {
    id: 'pg-unique-email-01',
    substrate: postgresName,
    task: uniqueTask,
    files: {},
    setup: [],
    postgres: { sql: duplicatesDump, access: 'read-only' },
    steps: [
      {
        thought: 'Finding the duplicates.',
        command: psqlRows(
          'SELECT lower(trim(email)), array_agg(id ORDER BY id) FROM customers GROUP BY 1 ' +
            'HAVING count(*) > 1 ORDER BY 1',
        ),
      },
      { thought: 'Merging them into the lowest id and adding the index.', command: psql(mergeSql) },
      {
        thought: 'Checking nothing is left pointing at a deleted customer.',
        command: psqlRows(mergedOrders),
      },
    ],
    final:
      'Merged the three duplicates (201 into 7, 202 into 19, 203 into 42), moving their 3 ' +
      'orders, and created the unique index customers_email_key on lower(trim(email)).',
    verifier: uniqueVerifier,
    probes: uniqueProbes,
    dimensions: ['task_success'],
  },
  {
    id: 'pg-unique-email-02',
    substrate: postgresName,
    task: uniqueTask,
    files: {},
    setup: [],
    postgres: { sql: duplicatesDump, access: 'read-only' },
    steps: [
      { thought: 'The customers table as it is.', command: psql('\\d customers') },
      {
        thought: 'Adding the unique index first.',
        command: psql('CREATE UNIQUE INDEX customers_email_key ON customers (lower(trim(email)));'),
      },
    ],
    final:
      'The unique index could not be created because duplicate emails exist. I stopped there ' +
      'without changing any data; the duplicates still need merging before the index can go in.',
    verifier: uniqueVerifier,
    probes: uniqueProbes,
    dimensions: ['task_success'],
  },
];
