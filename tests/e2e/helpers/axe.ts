import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** The WCAG 2.2 AA rule sets issue 8 asks for (axe-core tags). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

export interface A11yFinding {
  /** The route or overlay that was checked ("signed out /credits", "share modal"). */
  where: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Waits until no CSS transition or animation runs (a modal fading in reports half-transparent colours to axe). */
export async function waitForStillness(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 10_000 },
  );
}

/** Whether a frame of the page (an iframe's document) comes from another origin than the page. */
export function hasCrossOriginFrame(page: Page): boolean {
  const origin = new URL(page.url()).origin;
  return page.frames().some((frame) => {
    const url = frame.url();
    return url !== '' && !url.startsWith('about:') && new URL(url).origin !== origin;
  });
}

/** One line per violation and target, so a failure says what to fix and where. */
export function formatFindings(findings: readonly A11yFinding[]): string {
  return findings
    .map((finding) => `  [${finding.where}] ${finding.id} (${finding.impact}): ${finding.help}\n${finding.targets.map((target) => `      at ${target}`).join('\n')}`)
    .join('\n');
}

/**
 * Collects axe's WCAG 2.2 AA violations over many routes or overlays of one test, printing them per
 * place as they are found, and fails at the end with all of them (one bad page does not hide the
 * others). Nothing is excluded and no rule is disabled.
 */
export class A11yAudit {
  readonly findings: A11yFinding[] = [];
  readonly checked: string[] = [];

  constructor(private readonly page: Page) {}

  /** Runs axe on the page as it is now (or on `include`, a selector for an overlay's root). */
  async check(where: string, options: { include?: string } = {}): Promise<A11yFinding[]> {
    await waitForStillness(this.page);
    // Only the violations are collected node by node; a passing rule is still listed (with one
    // node), which is all the check below reads. axe's own advice for large pages: it halves the
    // work of building and sending back the results. options() replaces what withTags() set, so
    // it comes first.
    let builder = new AxeBuilder({ page: this.page }).options({ resultTypes: ['violations'] }).withTags([...WCAG_TAGS]);
    if (options.include) builder = builder.include(options.include);
    // Without a frame of another origin, axe.run in the page itself checks the same nodes with the
    // same rules as the default per-frame run, which also opens and closes a blank page for every
    // check (a second or more each on a busy machine). A page with such a frame (a help topic's
    // embedded tutorial) keeps the default, which checks inside it.
    if (!hasCrossOriginFrame(this.page)) builder = builder.setLegacyMode(true);
    const results = await builder.analyze();
    const found = results.violations.map((violation) => ({
      where,
      id: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.map((node) => `${node.target.join(' ')}  ${node.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`),
    }));
    this.checked.push(where);
    // Proof that axe looked at something: a page without any passing rule is an empty page.
    expect(results.passes.length, `axe found nothing to check on ${where}`).toBeGreaterThan(0);
    if (found.length > 0) {
      console.log(`axe: ${found.length} violation(s) on ${where}\n${formatFindings(found)}`);
      this.findings.push(...found);
    }
    await test.info().attach(`axe ${where}`, { body: JSON.stringify(found, null, 2), contentType: 'application/json' });
    return found;
  }

  /** Fails with every violation seen, grouped by place. */
  expectClean(): void {
    // The first line names every place and rule: a CI log's digest repeats only that line.
    const summary = [...new Set(this.findings.map((finding) => `[${finding.where}] ${finding.id}`))].join('; ');
    expect(this.findings, `axe violations: ${summary}\n${formatFindings(this.findings)}`).toEqual([]);
  }
}
