// What the server project's global setup hands to its test files (vitest's provide / inject).
declare module 'vitest' {
  interface ProvidedContext {
    /** A PGlite data folder, migrated and seeded once per run, as a dumpDataDir tarball. */
    pgliteTemplate: string;
  }
}

export {};
