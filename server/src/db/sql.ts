/**
 * The database's shape as every query module sees it, apart from how it is opened (database.ts):
 * migrations and the seed need these types while database.ts runs them, and the split migration
 * lists need Migration while migrations.ts lists them, so they live here and the db modules import
 * no cycle (dpdm, with or without type imports).
 */

export interface QueryResult<T> {
  rows: T[];
  /** Rows returned, or rows changed by INSERT/UPDATE/DELETE. */
  rowCount: number;
}

/** Anything SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Database extends Queryable {
  /** `pglite` for the embedded default, `postgres` when DATABASE_URL points at a server. */
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL's LISTEN on `channel` over a connection of its own, kept open (and re-opened after a
   * drop) until the answered function is called; `onMessage` gets each NOTIFY's payload. Only a
   * PostgreSQL server has it: PGlite lives in one process, where nobody else could notify.
   */
  listen?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface Migration {
  /** Applied in increasing order; never renumber or edit a migration once it has shipped. */
  id: number;
  name: string;
  /** One statement per entry, so PGlite's and `pg`'s parameterised query both accept them. */
  statements: readonly string[];
}
