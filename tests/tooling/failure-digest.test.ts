import { describe, expect, it } from 'vitest';
import { failureDigest } from '../../scripts/failure-digest.ts';

/** Excerpts of real `npm test` logs (a side-by-side run on this machine), colour codes included. */
const esc = '\u001b';
const VITEST_LOG = [
  ` ${esc}[32m✓${esc}[39m ${esc}[30m${esc}[42m web-isolated ${esc}[49m${esc}[39m tests/services/api-error.test.ts (4 tests) 15ms`,
  '',
  `${esc}[41m${esc}[1m FAIL ${esc}[22m${esc}[49m ${esc}[30m${esc}[42m server ${esc}[49m${esc}[39m tests/server/app/database.test.ts${esc}[2m > ${esc}[22mopenDatabase${esc}[2m > ${esc}[22mopens the same data folder twice`,
  `${esc}[31m${esc}[1mError${esc}[22m: Test timed out in 60000ms.`,
  'If this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".',
  '',
  `${esc}[41m${esc}[1m FAIL ${esc}[22m${esc}[49m ${esc}[30m${esc}[42m server ${esc}[49m${esc}[39m tests/server/media/media-hardening.test.ts${esc}[2m > ${esc}[22muploads > keeps ?asset_id=`,
  `${esc}[31m${esc}[1mError${esc}[22m: media JbBTZHl9 did not get there in 10000 ms; statuses seen: processing_source${esc}[39m`,
  ' Test Files  2 failed | 199 passed (201)',
].join('\n');

const PLAYWRIGHT_LOG = [
  '  ✓  10 [rest] › tests/e2e/help.pw.ts:38:1 › the help beside a setting (15.5s)',
  '[WebServer] [kinora] SIGTERM: stopping.',
  '',
  '  1) [a11y-job-states] › tests/e2e/a11y-job-states.pw.ts:18:1 › job states pass axe ',
  '',
  '    Error: axe violations:',
  '      [tool page with a result] color-contrast (serious)',
  '  1 failed',
].join('\n');

describe('failureDigest', () => {
  it("names vitest's failed tests with their errors, without colour codes", () => {
    expect(failureDigest(VITEST_LOG)).toEqual([
      'FAIL server tests/server/app/database.test.ts > openDatabase > opens the same data folder twice',
      '  Error: Test timed out in 60000ms.',
      'FAIL server tests/server/media/media-hardening.test.ts > uploads > keeps ?asset_id=',
      '  Error: media JbBTZHl9 did not get there in 10000 ms; statuses seen: processing_source',
    ]);
  });

  it("names Playwright's failed tests with their errors", () => {
    expect(failureDigest(PLAYWRIGHT_LOG)).toEqual([
      '1) [a11y-job-states] › tests/e2e/a11y-job-states.pw.ts:18:1 › job states pass axe',
      '  Error: axe violations:',
    ]);
  });

  it("names vitest's errors outside any test and the file they came from", () => {
    const log = [
      ' Test Files  201 passed (201)',
      '⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯',
      '',
      'Vitest caught 1 unhandled error during the test run.',
      '⎯⎯⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯⎯',
      'Error: connect ECONNREFUSED 127.0.0.1:5432',
      ' ❯ TCPConnectWrap.afterConnect [as oncomplete] node:net:1637:16',
      'This error originated in "tests/server/app/postgres.test.ts" test file.',
    ].join('\n');
    expect(failureDigest(log)).toEqual([
      'Unhandled Errors',
      '  Vitest caught 1 unhandled error during the test run.',
      'Unhandled Rejection',
      '  Error: connect ECONNREFUSED 127.0.0.1:5432',
      'This error originated in "tests/server/app/postgres.test.ts" test file.',
    ]);
  });

  it('names type and lint errors', () => {
    const log = [
      "src/app/router.tsx(12,3): error TS2322: Type 'string' is not assignable to type 'number'.",
      '/work/main/src/lib/format.ts',
      "  14:7  error  'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars",
    ].join('\n');
    expect(failureDigest(log)).toEqual([
      "src/app/router.tsx(12,3): error TS2322: Type 'string' is not assignable to type 'number'.",
      "14:7 error 'unused' is assigned a value but never used @typescript-eslint/no-unused-vars",
    ]);
  });

  it('falls back to the last lines when no line names a failure, and keeps the digest short', () => {
    const log = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n');
    const digest = failureDigest(log);
    expect(digest).toHaveLength(24);
    expect(digest[0]).toBe('line 76');
    expect(digest.at(-1)).toBe('line 99');
    expect(failureDigest(`  7:1  error  ${'x'.repeat(400)}`)[0]).toHaveLength(220);
  });
});
