/**
 * For a stand-in run on its own from the command line (tests/fal/main.ts, tests/stripe/main.ts):
 * Ctrl-C or SIGTERM stops it, then ends the process (1 if stopping failed).
 */
export function exitOnSignals(stop: () => Promise<void>): void {
  const exit = () => {
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', exit);
  process.once('SIGTERM', exit);
}
