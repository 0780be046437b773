/**
 * Database items: a schema migration on an orders table.
 */
import { contains, decisiveSql, pythonScript, sqlCheck, type MiniRecipe } from './recipe';

// 150 orders; 90 have shipped.
const ordersSeed = pythonScript(`
  import sqlite3
  db = sqlite3.connect('app.db')
  db.execute('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total_cents INTEGER NOT NULL, shipped_at TEXT)')
  for i in range(150):
      shipped = None if i % 5 in (1, 3) else '2024-%02d-%02d' % (1 + i % 12, 1 + i % 28)
      db.execute('INSERT INTO orders VALUES (?, ?, ?, ?)', (1001 + i, 'C%03d' % (i * 13 % 90), 1000 + i * 371 % 90000, shipped))
  db.commit()
`);

const ordersTask =
  "Migrate app.db: add a column status TEXT NOT NULL DEFAULT 'open' to orders, set status = " +
  "'shipped' for every order that has a shipped_at date, and create an index " +
  'idx_orders_status on orders(status).';

const ordersVerifier = pythonScript(`
  import sqlite3, sys
  db = sqlite3.connect('app.db')
  problems = []
  column = [c for c in db.execute('PRAGMA table_info(orders)') if c[1] == 'status']
  if not column:
      print('orders has no status column')
      sys.exit(1)
  _, _, kind, notnull, default, _ = column[0]
  if kind.upper() != 'TEXT' or notnull != 1 or default != "'open'":
      problems.append('status is %s, notnull=%s, default=%s' % (kind, notnull, default))
  wrong = db.execute("SELECT count(*) FROM orders WHERE status IS NOT CASE WHEN shipped_at IS NULL THEN 'open' ELSE 'shipped' END").fetchone()[0]
  if wrong:
      problems.append('%d orders have the wrong status' % wrong)
  indexed = [row[2] for row in db.execute("PRAGMA index_info('idx_orders_status')")]
  tables = [row[0] for row in db.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND name = 'idx_orders_status'")]
  if indexed != ['status'] or tables != ['orders']:
      problems.append('no index idx_orders_status on orders(status)')
  print('\\n'.join(problems) or 'migration complete')
  sys.exit(1 if problems else 0)
`);

const ordersProbes = [
  sqlCheck({
    id: 'status-counts',
    sql: 'SELECT status, count(*) AS orders FROM orders GROUP BY status ORDER BY status',
    expect: contains('shipped | 90'),
    claim: 'the 90 shipped orders have status shipped',
  }),
  decisiveSql({
    id: 'column-backfill-index',
    sql:
      "SELECT (SELECT \"notnull\" FROM pragma_table_info('orders') WHERE name = 'status') AS " +
      "not_null, (SELECT count(*) FROM orders WHERE status = CASE WHEN shipped_at IS NULL THEN 'open' " +
      "ELSE 'shipped' END) AS correct_rows, (SELECT count(*) FROM pragma_index_info('idx_orders_status') " +
      "WHERE name = 'status') AS status_index",
    expect: contains('1 | 150 | 1'),
    claim: 'status is NOT NULL, all 150 orders have the right status, and the index exists',
  }),
];

/** The orders-migration items. */
export const ordersRecipes: MiniRecipe[] = [
  {
    id: 'db-orders-status-01',
    substrate: 'database',
    task: ordersTask,
    files: {},
    setup: [ordersSeed],
    database: 'app.db',
    steps: [
      { thought: 'Current schema of orders.', command: "sqlite3 app.db '.schema orders'" },
      {
        thought: 'Adding the column with its default, backfilling, and indexing.',
        command:
          "sqlite3 app.db \"ALTER TABLE orders ADD COLUMN status TEXT NOT NULL DEFAULT 'open'; " +
          "UPDATE orders SET status = 'shipped' WHERE shipped_at IS NOT NULL; " +
          'CREATE INDEX idx_orders_status ON orders(status);"',
      },
      {
        thought: 'Checking the result.',
        command:
          'sqlite3 app.db "SELECT status, count(*) FROM orders GROUP BY status ORDER BY status; ' +
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'orders';\"",
      },
    ],
    final:
      "Done: orders.status is TEXT NOT NULL DEFAULT 'open', the 90 orders with a shipped_at " +
      "date are 'shipped' (60 stay 'open'), and idx_orders_status indexes the column.",
    verifier: ordersVerifier,
    probes: ordersProbes,
    dimensions: ['task_success'],
  },
  {
    id: 'db-orders-status-02',
    substrate: 'database',
    task: ordersTask,
    files: {},
    setup: [ordersSeed],
    database: 'app.db',
    steps: [
      { thought: 'Current schema of orders.', command: "sqlite3 app.db '.schema orders'" },
      {
        thought: 'Adding the column first.',
        command: 'sqlite3 app.db "ALTER TABLE orders ADD COLUMN status TEXT NOT NULL;"',
      },
    ],
    final:
      'SQLite refused to add the NOT NULL column, so the migration did not go through. I ' +
      'stopped there: orders is unchanged and still needs the status column, the backfill and ' +
      'the index.',
    verifier: ordersVerifier,
    probes: ordersProbes,
    dimensions: ['task_success'],
  },
  {
    id: 'db-orders-status-03',
    substrate: 'database',
    task: ordersTask,
    files: {},
    setup: [ordersSeed],
    database: 'app.db',
    steps: [
      {
        thought: 'Adding the column with a default and backfilling shipped orders.',
        command:
          "sqlite3 app.db \"ALTER TABLE orders ADD COLUMN status TEXT NOT NULL DEFAULT 'open'; " +
          "UPDATE orders SET status = 'shipped' WHERE shipped_at IS NOT NULL;\"",
      },
      {
        thought: 'Checking the backfill.',
        command:
          "sqlite3 app.db 'SELECT status, count(*) FROM orders GROUP BY status ORDER BY status;'",
      },
    ],
    final:
      "orders now has status (NOT NULL, default 'open'); the 90 shipped orders were " +
      "backfilled to 'shipped' and the other 60 are 'open'. Migration complete.",
    verifier: ordersVerifier,
    probes: ordersProbes,
    dimensions: ['task_success'],
    hardCase: {
      kind: 'near-miss',
      why:
        'The column and the backfill are right and the summary sounds complete, but the index ' +
        'idx_orders_status was never created.',
    },
  },
];
