/** One forward-only schema step; `version` is the `user_version` the database has after it. */
export interface Migration {
  /** 1, 2, 3, ... with no gaps. */
  version: number;
  /** Short name, for error messages. */
  name: string;
  /** Statements run in one transaction. */
  sql: string;
}
