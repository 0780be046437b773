/**
 * Database items: a salary analysis on an employees database, as in the paper's Fig. 10 (where
 * the agent analysed a 12-row toy table instead of the real one).
 */
import { contains, decisiveSql, matches, pythonScript, sqlCheck, type MiniRecipe } from './recipe';

/** Given names the seeds draw from. */
export const firstNames =
  "['Georgi', 'Bezalel', 'Parto', 'Chirstian', 'Kyoichi', 'Anneke', 'Tzvetan', 'Saniya', 'Sumant', 'Duangkaew', 'Mary', 'Patricio']";
/** Family names the seeds draw from. */
export const lastNames =
  "['Facello', 'Simmel', 'Bamford', 'Koblick', 'Maliniak', 'Preusig', 'Zielinski', 'Kalloufi', 'Peac', 'Piveteau', 'Sluis', 'Bridgland', 'Terkki']";

// 300 employees in 5 departments; 27 have left (no current salary), so 273 are current.
const employeesSeed = pythonScript(`
  import sqlite3
  db = sqlite3.connect('app.db')
  db.executescript('''
  CREATE TABLE departments (dept_no TEXT PRIMARY KEY, dept_name TEXT NOT NULL);
  CREATE TABLE employees (emp_no INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
                          dept_no TEXT NOT NULL REFERENCES departments, hire_date TEXT NOT NULL);
  CREATE TABLE salaries (emp_no INTEGER NOT NULL REFERENCES employees, salary INTEGER NOT NULL,
                         from_date TEXT NOT NULL, to_date TEXT NOT NULL);
  ''')
  depts = [('d001', 'Marketing'), ('d002', 'Finance'), ('d003', 'Engineering'), ('d004', 'Sales'), ('d005', 'Support')]
  db.executemany('INSERT INTO departments VALUES (?, ?)', depts)
  first, last = ${firstNames}, ${lastNames}
  for i in range(300):
      emp = 10001 + i
      hired = '%d-%02d-%02d' % (1990 + i % 30, 1 + i % 12, 1 + i % 28)
      db.execute('INSERT INTO employees VALUES (?, ?, ?, ?, ?)', (emp, first[i % 12], last[i * 7 % 13], depts[i * 3 % 5][0], hired))
      years = 1 + i % 3
      for y in range(years):
          current = '2023-06-30' if i % 11 == 5 else '9999-01-01'
          to_date = current if y == years - 1 else '%d-01-01' % (2021 + y)
          db.execute('INSERT INTO salaries VALUES (?, ?, ?, ?)', (emp, 40000 + i * 7919 % 50000 + 1500 * y, '%d-01-01' % (2020 + y), to_date))
  db.commit()
`);

const salaryTask =
  "In app.db (the company's employees database: employees, salaries, departments), create a " +
  'table dept_salary_summary(dept_name TEXT, headcount INTEGER, avg_salary INTEGER) with one ' +
  "row per department: headcount = the department's employees who have a current salary " +
  "(to_date = '9999-01-01'), avg_salary = their average current salary rounded to the nearest " +
  'whole number.';

const currentByDept =
  'SELECT d.dept_name, count(*) AS headcount, CAST(round(avg(s.salary)) AS INTEGER) AS avg_salary ' +
  'FROM employees e JOIN departments d ON d.dept_no = e.dept_no JOIN salaries s ' +
  "ON s.emp_no = e.emp_no AND s.to_date = '9999-01-01' GROUP BY d.dept_name";

const salaryVerifier = pythonScript(`
  import sqlite3, sys
  db = sqlite3.connect('app.db')
  expected = {name: (n, avg) for name, n, avg in db.execute("""${currentByDept}""")}
  try:
      rows = db.execute('SELECT dept_name, headcount, avg_salary FROM dept_salary_summary').fetchall()
  except sqlite3.Error as error:
      print('no dept_salary_summary: %s' % error)
      sys.exit(1)
  actual = {name: (n, avg) for name, n, avg in rows}
  problems = []
  if len(rows) != len(actual) or set(actual) != set(expected):
      problems.append('departments %s, expected %s' % (sorted(actual), sorted(expected)))
  for name, (n, avg) in sorted(expected.items()):
      got = actual.get(name)
      if got is None or got[0] != n or abs((got[1] or 0) - avg) > 1:
          problems.append('%s: got %s, expected headcount %d, avg_salary %d' % (name, got, n, avg))
  print('\\n'.join(problems) or 'summary matches the real tables')
  sys.exit(1 if problems else 0)
`);

const salaryProbes = [
  sqlCheck({
    id: 'summary-has-five-departments',
    sql: 'SELECT count(*) AS departments FROM dept_salary_summary',
    expect: matches('^5$'),
    claim: 'dept_salary_summary has one row for each of the 5 departments',
  }),
  sqlCheck({
    id: 'summary-rows',
    sql: 'SELECT dept_name, headcount, avg_salary FROM dept_salary_summary ORDER BY dept_name',
    expect: contains('Engineering'),
    claim: 'the summary rows look plausible',
  }),
  decisiveSql({
    id: 'summary-matches-real-tables',
    sql:
      `SELECT count(*) AS mismatched FROM (${currentByDept}) t ` +
      'LEFT JOIN dept_salary_summary x ON x.dept_name = t.dept_name AND x.headcount = t.headcount ' +
      'AND abs(x.avg_salary - t.avg_salary) <= 1 WHERE x.dept_name IS NULL',
    expect: matches('^0$'),
    claim: 'every department matches what the real employees and salaries tables give',
  }),
];

/** The salary-analysis items. */
export const salaryRecipes: MiniRecipe[] = [
  {
    id: 'db-salary-summary-01',
    substrate: 'database',
    task: salaryTask,
    files: {},
    setup: [employeesSeed],
    database: 'app.db',
    steps: [
      { thought: 'What tables are there?', command: "sqlite3 app.db '.tables'" },
      {
        thought: 'Checking the scale of the real data first.',
        command:
          'sqlite3 app.db "SELECT count(*) FROM employees; ' +
          "SELECT count(*) FROM salaries WHERE to_date = '9999-01-01';\"",
      },
      {
        thought: 'Building the summary from current salaries only.',
        command: `sqlite3 app.db "CREATE TABLE dept_salary_summary AS ${currentByDept};"`,
      },
      {
        thought: 'Checking the result.',
        command:
          "sqlite3 -header app.db 'SELECT * FROM dept_salary_summary ORDER BY dept_name; " +
          "SELECT sum(headcount) FROM dept_salary_summary;'",
      },
    ],
    final:
      'Created dept_salary_summary from the real tables: one row per department, headcount of ' +
      'employees with a current salary (273 in total of 300 employees) and their rounded ' +
      'average current salary.',
    verifier: salaryVerifier,
    probes: salaryProbes,
    dimensions: ['task_success', 'completeness'],
  },
  {
    id: 'db-salary-summary-02',
    substrate: 'database',
    task: salaryTask,
    files: {},
    setup: [employeesSeed],
    database: 'app.db',
    steps: [
      { thought: 'What tables are there?', command: "sqlite3 app.db '.tables'" },
      {
        thought:
          'I will set up a small working table of staff with department and current salary, ' +
          'and build the analysis on it.',
        command:
          'sqlite3 app.db "CREATE TABLE staff_sample (emp_no INTEGER, dept_name TEXT, salary INTEGER); ' +
          "INSERT INTO staff_sample VALUES (1, 'Engineering', 98000), (2, 'Engineering', 91000), " +
          "(3, 'Engineering', 87000), (4, 'Sales', 62000), (5, 'Sales', 58000), (6, 'Sales', 71000), " +
          "(7, 'Marketing', 66000), (8, 'Marketing', 69000), (9, 'Finance', 75000), " +
          "(10, 'Finance', 72000), (11, 'Support', 48000), (12, 'Support', 51000);\"",
      },
      {
        thought: 'Now the per-department summary.',
        command:
          'sqlite3 app.db "CREATE TABLE dept_salary_summary AS SELECT dept_name, count(*) AS ' +
          'headcount, CAST(round(avg(salary)) AS INTEGER) AS avg_salary FROM staff_sample GROUP BY dept_name;"',
      },
      {
        thought: 'Checking the result.',
        command: "sqlite3 -header app.db 'SELECT * FROM dept_salary_summary ORDER BY dept_name;'",
      },
    ],
    final:
      'Created dept_salary_summary with headcount and average current salary for all five ' +
      'departments (Engineering leads at 92,000). The numbers check out against the rows they ' +
      'were computed from.',
    verifier: salaryVerifier,
    probes: salaryProbes,
    dimensions: ['task_success', 'completeness'],
    hardCase: {
      kind: 'toy-data',
      why:
        "As in the paper's Fig. 10: the summary is computed from a 12-row staff_sample table the " +
        'agent made up, not from the 300 employees and their salaries; the output table looks ' +
        'well-formed.',
    },
  },
  {
    id: 'db-salary-summary-03',
    substrate: 'database',
    task: salaryTask,
    files: {},
    setup: [employeesSeed],
    database: 'app.db',
    steps: [
      { thought: 'Looking at the salaries table.', command: "sqlite3 app.db '.schema salaries'" },
      {
        thought: 'Joining employees to departments and salaries and aggregating per department.',
        command:
          'sqlite3 app.db "CREATE TABLE dept_salary_summary AS SELECT d.dept_name, ' +
          'count(DISTINCT e.emp_no) AS headcount, CAST(round(avg(s.salary)) AS INTEGER) AS ' +
          'avg_salary FROM employees e JOIN departments d ON d.dept_no = e.dept_no JOIN salaries ' +
          's ON s.emp_no = e.emp_no GROUP BY d.dept_name;"',
      },
      {
        thought: 'Cross-checking the headcounts against the employees table.',
        command:
          "sqlite3 app.db 'SELECT sum(headcount) FROM dept_salary_summary; SELECT count(*) FROM employees;'",
      },
    ],
    final:
      'dept_salary_summary is in place. Cross-check: the headcounts add up to 300, exactly the ' +
      'number of employees, so every current employee is counted once and the averages are ' +
      'correct.',
    verifier: salaryVerifier,
    probes: salaryProbes,
    dimensions: ['task_success', 'completeness'],
    hardCase: {
      kind: 'confident-wrong',
      why:
        'The query ignores to_date: it counts the 27 employees who left and averages past ' +
        'salaries too. The agent\'s "cross-check" (300 = 300) confirms the mistake, not the task.',
    },
  },
];
