/** What `npm test` (scripts/test.ts) repeats at the end of its log about a part that failed. */

// eslint-disable-next-line no-control-regex -- the colour codes of a tool's output
const ANSI = /\u001b\[[0-9;]*m/g;
/**
 * A line naming what failed: vitest's "FAIL file > test" and its "Unhandled Rejection" banner (an
 * error outside any test fails the run too), Playwright's "1) [project] › file › test", tsc's and
 * ESLint's errors.
 */
const FAILURE_LINE = /^\s*FAIL\s|Unhandled (?:Errors?|Rejection)\b|originated in "|^\s+\d+\) \[|error TS\d+|^\s+\d+:\d+\s+error\s/;
const DIGEST_LINES = 24;
const squeeze = (line: string): string => line.replace(/⎯+/g, '').trim().replace(/\s+/g, ' ');

/**
 * A failed part's failures in a few lines: each line naming a failed test or error with the error
 * line after it, or else the output's last lines. CI logs are often read from their tail only, and
 * a part that ended first prints its log before the others', so without this a unit failure would
 * sit twenty minutes of browser-test output above the summary.
 */
export const failureDigest = (output: string): string[] => {
  const lines = output.replace(ANSI, '').split('\n');
  const digest: string[] = [];
  lines.forEach((line, index) => {
    if (!FAILURE_LINE.test(line)) return;
    digest.push(squeeze(line));
    const error = lines.slice(index + 1, index + 4).find((next) => /error/i.test(next));
    if (error !== undefined && !FAILURE_LINE.test(error)) digest.push(`  ${squeeze(error)}`);
  });
  const chosen = digest.length > 0 ? digest : lines.filter((line) => line.trim() !== '').slice(-DIGEST_LINES);
  return chosen.slice(0, DIGEST_LINES).map((line) => (line.length > 220 ? `${line.slice(0, 217)}...` : line));
};
