import { describe, expect, it } from 'vitest';
import {
  figuresOf,
  lighthouseOverBudget,
  lighthouseTable,
  median,
  medianFigures,
  type LighthouseBudget,
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
    'resource-summary': {
      details: {
        items: [
          { resourceType: 'total', transferSize: 999_999 },
          { resourceType: 'script', transferSize: scriptBytes },
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
};

describe('Lighthouse bench', () => {
  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
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

  it('names each page figure that is over budget, and prints a row per page', () => {
    const results = [
      { path: '/', runs: 3, ...figuresOf(lhr(0.8, 3000, 150_000)) },
      { path: '/authentication', runs: 3, ...figuresOf(lhr(0.3, 4500, 150_000)) },
    ];
    expect(lighthouseOverBudget(results, budget)).toEqual([
      'Lighthouse /authentication performance score',
      'Lighthouse /authentication LCP',
    ]);
    const table = lighthouseTable(results).split('\n');
    expect(table[0]).toContain('median of 3 runs');
    expect(table[2]).toBe('| `/` | 80 | 100 | 96 | 100 | 1200 ms | 3000 ms | 150 ms | 0.010 | 146.5 KB |');
    expect(table).toHaveLength(4);
  });
});
