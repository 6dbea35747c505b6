import { expect, type Locator } from '@playwright/test';

/**
 * The video plays: its metadata loads, it is `seconds` long (within `tolerance`), and time
 * advances when it is played (muted, as a browser lets a page play it).
 */
export async function expectPlayable(video: Locator, seconds: number, tolerance = 0.5): Promise<void> {
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState >= 1 && element.duration > 0), { timeout: 30_000 })
    .toBe(true);
  const duration = await video.evaluate((element: HTMLVideoElement) => element.duration);
  expect(Math.abs(duration - seconds)).toBeLessThan(tolerance);
  const played = await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
    await new Promise((resolve) => setTimeout(resolve, 600));
    element.pause();
    return { time: element.currentTime, width: element.videoWidth };
  });
  expect(played.time).toBeGreaterThan(0);
  expect(played.width).toBeGreaterThan(0);
}
