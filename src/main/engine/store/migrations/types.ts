/** One forward-only schema step; `version` is the `user_version` the database has after it. */
export interface Migration {
  /** 1, 2, 3, ... with no gaps. */
  version: number;
  /** Short name, for error messages. */
  name: string;
  /** Statements run in one transaction. */
  sql: string;
  /**
   * VACUUM once the step has committed: for a step that rewrites most of the file, whose freed
   * pages would otherwise keep the file at its old size.
   */
  vacuumAfter?: boolean;
}
