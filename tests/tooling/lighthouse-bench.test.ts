import { describe, expect, it } from 'vitest';
import {
  figuresOf,
  lighthouseOverBudget,
  lighthouseTable,
  median,
  medianFigures,
  pointsUnderReference,
  REFERENCE_LABEL,
  scriptBytesOf,
  type LighthouseBudget,
  type LighthouseResults,
  type LighthouseFigures,
} from '../../bench/lighthouse';

/** A Lighthouse result (lhr) cut down to what bench/lighthouse.ts reads. */
const lhr = (performance: number, lcp: number, scriptBytes: number) => ({
  categories: {
    performance: { score: performance },
    accessibility: { score: 1 },
    'best-practices': { score: 0.96 },
    seo: { score: 1 },
  },
  audits: {
    'first-contentful-paint': { numericValue: 1200 },
    'largest-contentful-paint': { numericValue: lcp },
    'total-blocking-time': { numericValue: 150 },
    'cumulative-layout-shift': { numericValue: 0.01 },
    'network-requests': {
      details: {
        items: [
          { url: 'http://localhost/', resourceType: 'Document', mimeType: 'text/html', transferSize: 999_999 },
          { url: 'http://localhost/assets/index.js', resourceType: 'Script', mimeType: 'text/javascript', transferSize: scriptBytes },
        ],
      },
    },
  },
});

const budget: LighthouseBudget = {
  performanceScoreAtLeast: 0.5,
  accessibilityScoreAtLeast: 1,
  bestPracticesScoreAtLeast: 0.9,
  seoScoreAtLeast: 0.9,
  lcpMsAtMost: 4000,
  tbtMsAtMost: 600,
  clsAtMost: 0.1,
  pointsUnderReferenceAtMost: { '/': 3, '/authentication': 3 },
  jsTransferKbAtMost: { '/': 150, '/authentication': 150 },
};

describe('Lighthouse bench', () => {
  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('counts prefetched scripts, each file once, and no other bytes', () => {
    const result = lhr(0.9, 1500, 1000);
    const items = (result.audits['network-requests'].details.items as object[]).concat([
      // Fetched ahead (Lighthouse types a prefetch "Other"), then imported from the cache.
      { url: 'http://localhost/assets/app.js', resourceType: 'Other', mimeType: 'text/javascript', transferSize: 500 },
      { url: 'http://localhost/assets/app.js', resourceType: 'Script', mimeType: 'text/javascript', transferSize: 0 },
      { url: 'http://localhost/assets/style.css', resourceType: 'Stylesheet', mimeType: 'text/css', transferSize: 7000 },
      { url: 'data:text/javascript,1', resourceType: 'Script', mimeType: 'text/javascript', transferSize: 0 },
    ]);
    const withPrefetch = { ...result, audits: { ...result.audits, 'network-requests': { details: { items } } } };
    expect(scriptBytesOf(withPrefetch)).toBe(1500);
    expect(() => scriptBytesOf({ ...result, audits: {} })).toThrow(/network-requests/);
  });

  it('reads scores, metrics and the script bytes out of a result', () => {
    expect(figuresOf(lhr(0.62, 3100, 180_000))).toEqual({
      scores: { performance: 0.62, accessibility: 1, 'best-practices': 0.96, seo: 1 },
      fcpMs: 1200,
      lcpMs: 3100,
      tbtMs: 150,
      cls: 0.01,
      jsTransferBytes: 180_000,
    });
  });

  it('refuses a run where Lighthouse could not load the page', () => {
    expect(() => figuresOf({ ...lhr(0.5, 1, 1), runtimeError: { code: 'NO_FCP', message: 'no paint' } })).toThrow(
      /NO_FCP/,
    );
    const noScore = lhr(0.5, 1, 1);
    (noScore.categories.performance as { score: number | null }).score = null;
    expect(() => figuresOf(noScore)).toThrow(/performance/);
  });

  it('keeps the median of each figure, not the figures of one run', () => {
    const runs: LighthouseFigures[] = [lhr(0.9, 5000, 10), lhr(0.4, 2000, 30), lhr(0.6, 3000, 20)].map(figuresOf);
    const middle = medianFigures(runs);
    expect(middle.scores.performance).toBe(0.6);
    expect(middle.lcpMs).toBe(3000);
    expect(middle.jsTransferBytes).toBe(20);
  });

  it('names each page figure that is over budget, and prints the reference and a row per page', () => {
    const results: LighthouseResults = {
      reference: { path: REFERENCE_LABEL, runs: 3, ...figuresOf(lhr(0.82, 1800, 100_000)) },
      pages: [
        { path: '/', runs: 3, ...figuresOf(lhr(0.8, 3000, 150_000)) },
        { path: '/authentication', runs: 3, ...figuresOf(lhr(0.3, 4500, 150_000)) },
      ],
      load: 1.25,
    };
    expect(lighthouseOverBudget(results, budget)).toEqual([
      'Lighthouse /authentication performance score',
      'Lighthouse /authentication LCP',
      'Lighthouse /authentication performance points under the reference',
    ]);
    const table = lighthouseTable(results).split('\n');
    expect(table[0]).toContain('median of 3 runs');
    expect(table[0]).toContain('load 1.3');
    expect(table[2]).toBe(`| ${REFERENCE_LABEL} | 82 | — | 100 | 96 | 100 | 1200 ms | 1800 ms | 150 ms | 0.010 | 97.7 KB |`);
    expect(table[3]).toBe('| `/` | 80 | 2 | 100 | 96 | 100 | 1200 ms | 3000 ms | 150 ms | 0.010 | 146.5 KB |');
    expect(table).toHaveLength(5);
  });

  it('holds each page to its points under the reference and its JS before idle', () => {
    const reference = { path: REFERENCE_LABEL, runs: 3, ...figuresOf(lhr(0.94, 1800, 100_000)) };
    const page = (performance: number, scriptBytes: number) => ({ path: '/', runs: 3, ...figuresOf(lhr(performance, 3000, scriptBytes)) });
    expect(pointsUnderReference(page(0.91, 1), reference)).toBe(3);
    expect(lighthouseOverBudget({ reference, pages: [page(0.91, 150 * 1024)], load: 0 }, budget)).toEqual([]);
    expect(lighthouseOverBudget({ reference, pages: [page(0.9, 150 * 1024 + 1)], load: 0 }, budget)).toEqual([
      'Lighthouse / performance points under the reference',
      'Lighthouse / JS before idle',
    ]);
  });
});
