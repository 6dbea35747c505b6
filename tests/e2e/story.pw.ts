import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { createAccount, freshHandle } from './helpers/accounts';
import { expectPlayable } from './helpers/media';
import { balance, signIn, watchPageErrors } from './helpers/ui';
import { JOB_END_MS } from './helpers/stack';

/**
 * AI Story as a creator meets it on `npm start`'s stack (issue 6): an idea becomes a storyboard,
 * pictures of its elements and scenes, a video per scene and a narration, joined into one film that
 * plays — with a reload in the middle of the scenes step, and one scene changed and made again
 * without redoing the others, then that scene's earlier take restored by Undo and the new one picked
 * again (issue 21). Real server, real job engine, real MP4s.
 */

test.describe.configure({ timeout: 300_000 });

const IDEA =
  'Mara, a young lighthouse keeper, finds a glowing map on the beach. She sails her small boat across the stormy sea. ' +
  'At dawn she reaches a hidden island full of singing birds.';

test('an idea becomes a film; a reload mid-scenes resumes; one changed scene is made again alone, and a story take restored by undo', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'story', handle: freshHandle('story') });
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');
  await page.goto('/?coupon_code=WELCOME50');
  await expect(page.getByRole('dialog', { name: 'Congratulations!' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(balance(page)).toHaveText('150 credits');

  // Idea → storyboard (free).
  await page.goto('/ai-production/ai-story');
  await expect(page.getByRole('heading', { name: 'AI Story', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Your idea' }).fill(IDEA);
  await page.getByRole('combobox', { name: 'Film length' }).click();
  await page.getByRole('option', { name: '15 seconds' }).click();
  await page.getByRole('button', { name: 'Write storyboard' }).click();
  await expect(page).toHaveURL(/\/ai-production\/ai-story\/[^/]+$/);
  const storyUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Storyboard', level: 2 })).toBeVisible();
  await expect(page.getByText('3 scenes · 15 s in all')).toBeVisible();
  await expect(balance(page)).toHaveText('150 credits');

  // Elements: one picture each, paid before they are made.
  await page.getByRole('button', { name: 'Next: Elements' }).click();
  const pictureCost = page.getByText(/^\d+ pictures × 4 credits = \d+ credits/);
  await expect(pictureCost).toBeVisible();
  const elementCount = Number(/^(\d+)/.exec((await pictureCost.textContent()) ?? '')?.[1]);
  expect(elementCount).toBeGreaterThanOrEqual(2);
  await page.getByRole('button', { name: 'Make pictures' }).click();
  await expect(balance(page)).toHaveText(`${150 - elementCount * 4} credits`);
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(elementCount, { timeout: 60_000 });

  // Scenes: start them, reload while they are being made, and the page resumes where it was.
  await page.getByRole('button', { name: 'Next: Scenes' }).click();
  await expect(page.getByText('3 scene pictures × 4 credits = 12 credits', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Make scene pictures' }).click();
  const afterScenes = 150 - elementCount * 4 - 12;
  await expect(balance(page)).toHaveText(`${afterScenes} credits`);
  await page.reload();
  await expect(page).toHaveURL(storyUrl);
  await expect(page.getByRole('heading', { name: 'Scenes', level: 2 })).toBeVisible();
  for (const number of [1, 2, 3]) {
    await expect(page.getByRole('img', { name: `Picture of scene ${number}` })).toBeVisible({ timeout: 60_000 });
  }
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(3, { timeout: 60_000 });
  await expect(balance(page)).toHaveText(`${afterScenes} credits`);

  // Change scene 2's words: only its picture turns stale; making again sends only scene 2.
  // The files, not their links: a link is signed afresh (a new expiry) each time the story is read.
  const pictureFiles = () =>
    Promise.all(
      [1, 3].map(async (number) => {
        const src = await page.getByRole('img', { name: `Picture of scene ${number}` }).getAttribute('src');
        return src ? new URL(src, page.url()).pathname : null;
      }),
    );
  const firstPictures = await pictureFiles();
  // Each step's page is drawn after the click has painted (the step follows a deferred value): wait
  // for one step's heading before pressing the next step's button, or the second click can land on
  // the page being replaced (a CI run went back one step, not two).
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Elements', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Storyboard', level: 2 })).toBeVisible();
  await page.getByRole('textbox', { name: 'What happens' }).nth(1).fill('She rows her small boat through towering waves under a purple sky.');
  await page.getByRole('button', { name: 'Next: Elements' }).click();
  await expect(page.getByRole('heading', { name: 'Elements', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Next: Scenes' }).click();
  await expect(page.getByText('Stale', { exact: true })).toHaveCount(1);
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(2);
  await expect(page.getByText('1 scene picture × 4 credits = 4 credits', { exact: false })).toBeVisible();
  const sceneTwo = page.getByRole('region', { name: 'Scene 2' });
  const pictureOfTwo = async () => new URL((await sceneTwo.getByRole('img', { name: 'Picture of scene 2' }).getAttribute('src')) ?? '', page.url()).pathname;
  const firstOfTwo = await pictureOfTwo();
  const regenerate = page.waitForRequest((sent) => /\/api\/story\/[^/]+\/scenes$/.test(sent.url()) && sent.method() === 'POST');
  await page.getByRole('button', { name: 'Regenerate the picture of scene 2' }).click();
  const body = (await regenerate).postData() ?? '';
  expect(body.match(/name="ids"/g)).toHaveLength(1);
  expect(body).toContain('scene-2');
  await expect(balance(page)).toHaveText(`${afterScenes - 4} credits`);
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(3, { timeout: 60_000 });
  // The other two scenes kept their pictures.
  expect(await pictureFiles()).toEqual(firstPictures);
  expect(firstPictures.every((path) => path?.startsWith('/api/files/'))).toBe(true);

  // A story take restored by undo (issue 21): the first picture of scene 2 is in use again — stale,
  // as it was drawn from the old words — and the new one stays a take; choosing is free.
  const secondOfTwo = await pictureOfTwo();
  expect(secondOfTwo).not.toBe(firstOfTwo);
  await sceneTwo.getByRole('button', { name: 'Undo: back to take 1 of the picture of scene 2' }).click();
  await expect(sceneTwo.getByRole('button', { name: 'Take 1 of the picture of scene 2 (in use)' })).toHaveAttribute('aria-pressed', 'true');
  await expect(sceneTwo.getByText('Stale', { exact: true })).toBeVisible();
  expect(await pictureOfTwo()).toBe(firstOfTwo);
  await expect(sceneTwo.getByRole('button', { name: /^Undo/ })).toHaveCount(0);
  // Kept on a reload (the server has it), then the new take picked again for the film.
  await page.reload();
  await expect(sceneTwo.getByRole('button', { name: 'Take 1 of the picture of scene 2 (in use)' })).toBeVisible();
  await sceneTwo.getByRole('button', { name: 'Take 2 of the picture of scene 2', exact: true }).click();
  await expect(sceneTwo.getByRole('button', { name: 'Take 2 of the picture of scene 2 (in use)' })).toBeVisible();
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(3);
  expect(await pictureOfTwo()).toBe(secondOfTwo);
  // Each scene card shows the element pictures it is drawn with.
  await expect(page.getByRole('list', { name: 'Elements of scene 1' }).getByRole('img').first()).toBeVisible();
  await expect(balance(page)).toHaveText(`${afterScenes - 4} credits`);

  // Scriptboard: a video per scene, the narration, then the film.
  await page.getByRole('button', { name: 'Next: Scriptboard' }).click();
  await expect(page.getByText('3 videos × 20 credits = 60 credits', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Make videos' }).click();
  await page.getByRole('button', { name: 'Make sound' }).click();
  const spent = elementCount * 4 + 12 + 4 + 60 + 8;
  await expect(balance(page)).toHaveText(`${150 - spent} credits`);
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.locator('video')).toHaveCount(3, { timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Make the film' })).toBeEnabled({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Make the film' }).click();
  await expect(page.getByText('Your film is ready')).toBeVisible({ timeout: 120_000 });
  const film = page.locator('video[aria-label="The film"]').first();
  await expectPlayable(film, 15, 0.6);
  await expect(page.getByRole('link', { name: 'Download MP4' })).toHaveAttribute('download', /\.mp4$/);
  // Joining is free.
  await expect(balance(page)).toHaveText(`${150 - spent} credits`);

  // Leave and come back: the story is listed and reopens on its film.
  await page.goto('/ai-production/ai-story');
  await page.getByRole('link', { name: /Open Mara/ }).click();
  await expect(page.getByText('Your film is ready')).toBeVisible({ timeout: JOB_END_MS });

  // Export for editing (issue 21): the timelines and the zip, read back as an editing program would.
  await exportsReadBack(page);
  expect(errors).toEqual([]);
});

/** Downloads one export file by its button and returns its name and bytes. */
async function downloadBy(page: Page, name: string): Promise<{ name: string; data: Buffer }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name }).click();
  const file = await download;
  return { name: file.suggestedFilename(), data: await readFile(await file.path()) };
}

interface OtioClip {
  name: string;
  source_range: { duration: { value: number; rate: number } };
  media_reference: { target_url: string };
}

async function exportsReadBack(page: Page) {
  const section = page.getByRole('region', { name: 'Export for editing' });
  await expect(section.getByRole('button', { name: 'Download OTIO timeline (.otio)' })).toBeEnabled();

  const otioFile = await downloadBy(page, 'Download OTIO timeline (.otio)');
  expect(otioFile.name).toMatch(/\.otio$/);
  const otio = JSON.parse(otioFile.data.toString('utf8')) as {
    OTIO_SCHEMA: string;
    tracks: { children: { kind: string; children: OtioClip[] }[]; markers: { name: string }[] };
  };
  expect(otio.OTIO_SCHEMA).toBe('Timeline.1');
  expect(otio.tracks.children.map((track) => track.kind)).toEqual(['Video', 'Audio']);
  const [video, narration] = otio.tracks.children as [{ kind: string; children: OtioClip[] }, { kind: string; children: OtioClip[] }];
  expect(video.children.map((clip) => clip.name)).toEqual(['Scene 1', 'Scene 2', 'Scene 3']);
  expect(video.children.map((clip) => clip.media_reference.target_url)).toEqual(['media/scene-01.mp4', 'media/scene-02.mp4', 'media/scene-03.mp4']);
  const frames = (clips: OtioClip[]) => clips.reduce((sum, clip) => sum + clip.source_range.duration.value, 0);
  // The clips' lengths add up to the film the page plays (24 fps); the narration lies under all of it.
  const filmFrames = frames(video.children);
  const film = page.locator('video[aria-label="The film"]').first();
  await expect.poll(() => film.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(0);
  const filmSeconds = await film.evaluate((element: HTMLVideoElement) => element.duration);
  expect(Math.abs(filmFrames / 24 - filmSeconds)).toBeLessThan(0.1);
  expect(filmFrames).toBeGreaterThanOrEqual(3 * 5 * 24 - 3);
  expect(frames(narration.children)).toBe(filmFrames);
  expect(otio.tracks.markers.map((marker) => marker.name)).toEqual(['Scene 1', 'Scene 2', 'Scene 3']);

  const edl = (await downloadBy(page, 'Download EDL (.edl)')).data.toString('utf8');
  const timecodeFrames = (timecode: string) => {
    const [hours, minutes, seconds, frame] = timecode.split(':').map(Number) as [number, number, number, number];
    return ((hours * 60 + minutes) * 60 + seconds) * 24 + frame;
  };
  const videoEvents = [...edl.matchAll(/^\d{3}\s+AX\s+V\s+C\s+\S+ \S+ (\S+) (\S+)$/gm)].map((match) => [timecodeFrames(match[1]!), timecodeFrames(match[2]!)] as const);
  expect(videoEvents).toHaveLength(3);
  const hour = 3600 * 24;
  expect(videoEvents[0]![0]).toBe(hour);
  videoEvents.forEach(([recordIn], index) => index > 0 && expect(recordIn).toBe(videoEvents[index - 1]![1]));
  expect(videoEvents.at(-1)![1] - hour).toBe(filmFrames);

  const srt = (await downloadBy(page, 'Download subtitles (.srt)')).data.toString('utf8');
  const cues = [...srt.matchAll(/^(\d+)\r\n(\d\d):(\d\d):(\d\d),(\d{3}) --> (\d\d):(\d\d):(\d\d),(\d{3})\r\n(.+)$/gm)];
  // A cue a sentence; one read after the film's end is left out.
  expect(cues.length).toBeGreaterThanOrEqual(2);
  const ms = (parts: string[]) => ((Number(parts[0]) * 60 + Number(parts[1])) * 60 + Number(parts[2])) * 1000 + Number(parts[3]);
  let last = 0;
  cues.forEach((cue, index) => {
    expect(Number(cue[1])).toBe(index + 1);
    const start = ms(cue.slice(2, 6));
    const end = ms(cue.slice(6, 10));
    expect(start).toBeGreaterThanOrEqual(last);
    expect(end).toBeGreaterThan(start);
    expect(end).toBeLessThanOrEqual(Math.round((filmFrames / 24) * 1000));
    last = end;
  });
  expect(cues[0]![10]).toContain('Mara');

  const zip = await downloadBy(page, 'Download zip with media');
  expect(zip.name).toMatch(/\.zip$/);
  await expect(section.getByText(/was made and handed to your browser to save/)).toBeVisible();
  const files = unzipSync(new Uint8Array(zip.data));
  const names = Object.keys(files).sort();
  expect(names.filter((name) => name.startsWith('media/'))).toEqual(['media/narration.wav', 'media/scene-01.mp4', 'media/scene-02.mp4', 'media/scene-03.mp4']);
  expect(names.filter((name) => /\.(otio|edl|srt)$/.test(name))).toHaveLength(3);
  // Each clip is the real MP4 (an ftyp box first) and the narration a real WAV.
  for (const name of ['media/scene-01.mp4', 'media/scene-02.mp4', 'media/scene-03.mp4']) {
    expect(Buffer.from(files[name]!.subarray(4, 8)).toString('latin1')).toBe('ftyp');
  }
  expect(Buffer.from(files['media/narration.wav']!.subarray(0, 4)).toString('latin1')).toBe('RIFF');
  const zipped = JSON.parse(Buffer.from(files[names.find((name) => name.endsWith('.otio'))!]!).toString('utf8')) as { tracks: { children: { children: OtioClip[] }[] } };
  const referenced = zipped.tracks.children.flatMap((track) => track.children.map((clip) => clip.media_reference.target_url));
  expect(referenced.every((url) => url in files)).toBe(true);
}

test('one quote for the whole film: held from the balance, the pictures paid from the hold, the rest released', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'storyhold', handle: freshHandle('storyhold') });
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');
  await page.goto('/?coupon_code=WELCOME50');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(balance(page)).toHaveText('150 credits');
  await page.goto('/ai-production/ai-story');
  await page.getByRole('textbox', { name: 'Your idea' }).fill(IDEA);
  await page.getByRole('combobox', { name: 'Film length' }).click();
  await page.getByRole('option', { name: '15 seconds' }).click();
  await page.getByRole('button', { name: 'Write storyboard' }).click();
  await expect(page).toHaveURL(/\/ai-production\/ai-story\/[^/]+$/);

  // The whole film priced before anything is made, then held in one click.
  const quote = page.getByTestId('story-quote');
  await expect(quote).toHaveText(/ = \d+ credits \(joining is free\)$/);
  const total = Number(/= (\d+) credits/.exec((await quote.textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThan(0);
  await page.getByRole('button', { name: `Hold ${total} credits and start` }).click();
  await expect(page.getByTestId('story-hold')).toHaveText(`${total} credits held for this film (0 spent from the hold so far). Its parts are paid from the hold.`);
  await expect(balance(page)).toHaveText(`${150 - total} credits`);

  // The pictures are paid from the hold: the balance stays where the hold put it.
  await page.getByRole('button', { name: 'Next: Elements' }).click();
  const pictureCost = page.getByText(/^\d+ pictures × 4 credits = \d+ credits · from the hold/);
  await expect(pictureCost).toContainText(`from the hold (${total} left)`);
  const pictures = Number(/= (\d+) credits/.exec((await pictureCost.textContent()) ?? '')?.[1]);
  await page.getByRole('button', { name: 'Make pictures' }).click();
  await expect(page.getByTestId('story-hold')).toContainText(`${total - pictures} credits held for this film (${pictures} spent from the hold so far)`);
  await expect(balance(page)).toHaveText(`${150 - total} credits`);

  // Released: what the hold still kept is back in the balance.
  await page.getByRole('button', { name: 'Release' }).click();
  await expect(page.getByText('The hold was released: its credits are back in your balance.')).toBeVisible();
  await expect(balance(page)).toHaveText(`${150 - pictures} credits`);
  expect(errors).toEqual([]);
});
