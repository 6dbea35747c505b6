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
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
  });
  // Time advances: waited on as it happens (no fixed pause), then the video is stopped.
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThan(0);
  const width = await video.evaluate((element: HTMLVideoElement) => {
    element.pause();
    return element.videoWidth;
  });
  expect(width).toBeGreaterThan(0);
}
