// What the server project's global setup hands to its test files (vitest's provide / inject).
declare module 'vitest' {
  interface ProvidedContext {
    /** A PGlite data folder, migrated and seeded once per run, as a dumpDataDir tarball. */
    pgliteTemplate: string;
    /**
     * The run's throw-away PostgreSQL cluster (tests/server/helpers/postgres.ts): its maintenance
     * database's URL, or why it could not start (e.g. PostgreSQL is not installed).
     */
    postgres: { adminUrl: string; version: string } | { error: string };
  }
}

export {};
