import { expect, test } from '@playwright/test';
import { ROUTES } from '../../src/config/routes';
import { createAccount, freshHandle } from './helpers/accounts';
import { balance } from './helpers/ui';
import { open, signInAs } from './helpers/a11y-pages';
import { JOB_END_MS } from './helpers/stack';

/**
 * Issue 8 Build 3: axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) finds nothing on every route of the
 * router and on every overlay, modal, popover and job state a person can reach on `npm start`'s
 * stack; the shell is usable by keyboard alone. Nothing is excluded from axe and no rule is turned
 * off. Each test collects the violations of all its places and prints them per place (rule id and
 * element), so one bad page does not hide the others.
 */

test.describe.configure({ timeout: 600_000 });

test('keyboard: Tab reaches the menu, the header and a tool\'s Generate button, which Enter submits; focus is visible', async ({ page, request }) => {
  const { email } = await createAccount(request, { prefix: 'a11y-kb', handle: freshHandle('a11y-kb') });
  await signInAs(page, email);
  await open(page, ROUTES.aiImage.textToImage);

  // A fresh load starts at the top of the page: the first Tab reaches the skip link, which takes focus past the header and menu to the page.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect.poll(async () => (await skip.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  // From the top again: Tab through the header and the menu into the form; type the prompt there.
  await open(page, ROUTES.aiImage.textToImage);
  const prompt = page.getByRole('textbox', { name: 'Prompt' });
  let typed = false;

  const seen: string[] = [];
  let reachedGenerate = false;
  for (let step = 0; step < 150 && !reachedGenerate; step += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(async () => {
      // Inputs change their border with a short transition: look once it has run (the next frame,
      // then until no finite animation or transition is running; getAnimations() flushes styles,
      // so a transition the focus change just started is among them).
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const running = () =>
        document.getAnimations().some((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity);
      const settled = async () => {
        const since = performance.now();
        await frame();
        // (Bounded: a transition that never ends shows as a failed focus check, not a hung test.)
        while (running() && performance.now() - since < 2_000) await frame();
      };
      await settled();
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      // What shows focus: an outline (Mantine's :focus-visible ring), a shadow, or the border colour
      // of an input. Compared with the same element unfocused, then focus goes back where it was.
      // A visually hidden input (radio cards, segmented controls) shows its focus on its label.
      const shown = [element, ...(element instanceof HTMLInputElement ? [...(element.labels ?? []), element.nextElementSibling] : [])];
      const look = () =>
        shown
          .filter((node): node is Element => node !== null)
          .map((node) => {
            const style = getComputedStyle(node);
            const outline = style.outlineStyle === 'none' ? 'none' : `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
            return [outline, style.boxShadow, style.borderColor].join(' | ');
          })
          .join(' || ');
      const focusedLook = look();
      element.blur();
      await settled();
      const restingLook = look();
      element.focus();
      const box = element.getBoundingClientRect();
      const name = element.getAttribute('aria-label') || element.textContent?.trim().slice(0, 40) || element.outerHTML.slice(0, 160);
      return {
        name,
        tag: element.tagName,
        inBanner: element.closest('header') !== null,
        inMenu: element.closest('nav') !== null,
        ring: focusedLook !== restingLook,
        looks: `${focusedLook} vs ${restingLook}`,
        width: box.width,
        height: box.height,
      };
    });
    if (!focused) continue;
    if (!typed && (await prompt.evaluate((element) => element === document.activeElement))) {
      await page.keyboard.type('a quiet harbour at night');
      typed = true;
    }
    seen.push(`${focused.tag} ${focused.name}`);
    // Every element reached by keyboard shows a focus ring (Mantine's :focus-visible outline).
    expect(focused.ring, `a visible focus indicator on ${focused.tag} "${focused.name}" (${focused.looks})`).toBe(true);
    if (focused.tag === 'BUTTON' && focused.name === 'Generate') reachedGenerate = true;
    if (focused.inBanner) seen.push('(header)');
    if (focused.inMenu) seen.push('(menu)');
  }
  expect(seen, 'Tab reaches the header').toContain('(header)');
  expect(seen, 'Tab reaches the menu').toContain('(menu)');
  expect(typed, 'Tab reaches the prompt').toBe(true);
  expect(reachedGenerate, `Tab reaches Generate; reached: ${seen.join(', ')}`).toBe(true);

  await page.keyboard.press('Enter');
  await expect(balance(page)).toHaveText('96 credits');
  await expect(page.getByRole('region', { name: 'Results' }).getByRole('img', { name: /quiet harbour/ }).first()).toBeVisible({ timeout: JOB_END_MS });
});
