import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORY_TOOLS } from '../../../src/config/story.ts';
import { elementPrompt, elementSource } from '../../../src/lib/story.ts';
import { storyDeletedSchema, storyListSchema, storySchema, type Story, type Storyboard } from '../../../src/services/schemas/story.ts';
import { appendLedgerEntry } from '../../../server/src/db/credit-ledger.ts';
import { cleanGuestContent } from '../../../server/src/scheduler/guest-cleanup.ts';
import { asMedia, balanceOf, fetchFile, ledgerRows, postForm, smallPng, type FormFields } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The story calls against the real server. Jobs here take a minute, so every part stays live
 * while the test looks at it (rendering them is story-render.test.ts's).
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;
let owner: User;
let other: User;

const NOT_FOUND = 'Failed to find a Story with this id';
const IDEA = 'Mara, a young fisher, finds a glowing shell on the beach. She carries it to the old lighthouse at night.';

const asStory = (answer: { body: { data?: unknown } | null }): Story => storySchema.parse(answer.body?.data);

async function uploadPicture(user: User, colour: string): Promise<string> {
  const upload = await postForm(server, 'image', { image_file: { data: await smallPng(96, 64, colour), name: 'p.png', type: 'image/png' } }, { token: user.accessToken });
  expect(upload.status).toBe(200);
  return asMedia(upload).items[0]?.url ?? '';
}

async function createStory(user: User, fields: FormFields = {}): Promise<Story> {
  const answer = await postForm(server, 'story', { idea: IDEA, duration: '15', ...fields }, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return asStory(answer);
}

async function generate(user: User, story: Story, part: string, fields: FormFields = {}, headers: Record<string, string> = {}) {
  return postForm(server, `story/${story.id}/${part}`, { storyboard: JSON.stringify(story.storyboard), ...fields }, { token: user.accessToken, headers });
}

async function save(user: User, story: Story, json: Record<string, unknown>) {
  return callApi(server, `story/${story.id}`, { method: 'PUT', token: user.accessToken, json });
}

async function mediaOfStory(storyId: string) {
  const { rows } = await server.db.query<{
    id: string;
    tool: string;
    kind: string;
    status: string;
    cost: number;
    option: string;
    args: Record<string, unknown>;
    inputs: { field: string; file_id: string }[];
  }>('SELECT id, tool, kind, status, cost, option, args, inputs FROM media WHERE story_id = $1 ORDER BY created_at, id', [storyId]);
  return rows;
}

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 60_000, pollIntervalMs: 100 } });
  [owner, other] = await Promise.all([signUpUser(server, 'storyteller'), signUpUser(server, 'stranger')]);
});

afterAll(async () => {
  await server?.close();
});

describe('creating a story', () => {
  it('writes the storyboard from the idea and answers the story at the storyboard step', async () => {
    const picture = await uploadPicture(owner, '#cc3333');
    const story = await createStory(owner, { aspect_ratio: '9:16', style: 'anime', image_urls: [picture] });
    expect(story).toMatchObject({ idea: IDEA, duration: 15, aspect_ratio: '9:16', style: 'anime', step: 'storyboard', media: {}, concat: null, concat_source: '' });
    const board = story.storyboard;
    expect(board).toMatchObject({ image_model: 'Seedream', video_model: 'PicoMotion' });
    expect(board.title.length).toBeGreaterThan(0);
    expect(board.scenes.length).toBeGreaterThanOrEqual(1);
    expect(board.elements.some((element) => element.kind === 'character')).toBe(true);
    expect(board.elements.some((element) => element.kind === 'place')).toBe(true);
    expect(board.elements.map((element) => element.name)).toContain('Mara');
    // The scenes' lengths add up to about the film's.
    const total = board.scenes.reduce((sum, scene) => sum + scene.duration, 0);
    expect(Math.abs(total - 15)).toBeLessThanOrEqual(5);
    expect(story.image_urls).toHaveLength(1);
    expect((await fetchFile(story.image_urls[0] ?? '')).status).toBe(200);
    // Writing the storyboard is free.
    expect(await balanceOf(server, owner.sub)).toBe(100);
  });

  it('takes the defaults and the title and models given', async () => {
    const plain = await createStory(owner, { duration: '' });
    expect(plain).toMatchObject({ duration: 30, aspect_ratio: '16:9', style: 'cinematic' });
    const named = await createStory(owner, { title: 'The shell', image_model: 'NanoBanana', video_model: 'KlingAI' });
    expect(named.storyboard).toMatchObject({ title: 'The shell', image_model: 'NanoBanana', video_model: 'KlingAI' });
  });

  it.each([
    ['no idea', { idea: '' }, /^idea must be 10 to 2000 characters/],
    ['a short idea', { idea: 'A cat.' }, /^idea must be 10 to 2000 characters; it has 6\.$/],
    ['a duration not offered', { duration: '20' }, /^duration must be one of 15, 30, 45, 60/],
    ['an unknown ratio', { aspect_ratio: '2:1' }, /^aspect_ratio must be one of/],
    ['an unknown style', { style: 'cubist' }, /^style must be one of cinematic/],
    ['a long title', { title: 'x'.repeat(81) }, /^title can be at most 80 characters\.$/],
    ['an image model that is not a scene-image model', { image_model: 'Midjourney' }, /^image_model must be one of Seedream/],
    ['a video model without a first frame', { video_model: 'TryOnVideo' }, /^video_model must be one of/],
    ['five reference pictures', { image_urls: ['a', 'b', 'c', 'd', 'e'] }, /at most 4 reference pictures/],
    ['a link that is not a Kinora file', { image_urls: ['https://example.test/cat.png'] }, /^image_urls is not a file uploaded to Kinora\.$/],
  ])('refuses a story with %s (400)', async (_name, fields, detail) => {
    const answer = await postForm(server, 'story', { idea: IDEA, ...fields } as FormFields, { token: owner.accessToken });
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(detail);
  });

  it('needs a signed-in caller', async () => {
    expect((await postForm(server, 'story', { idea: IDEA })).status).toBe(401);
    expect((await callApi(server, 'story')).status).toBe(401);
  });
});

describe('reading stories', () => {
  it('lists the caller stories newest first, with their titles and scene counts', async () => {
    const user = await signUpUser(server, 'lister');
    const first = await createStory(user, { title: 'First' });
    const second = await createStory(user, { idea: 'A robot learns to paint in an empty city.' });
    const list = storyListSchema.parse((await callApi(server, 'story', { token: user.accessToken })).body?.data);
    expect(list.items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(list.items[1]).toMatchObject({ title: 'First', step: 'storyboard', scene_count: first.storyboard.scenes.length, cover_url: null });
    const theirs = storyListSchema.parse((await callApi(server, 'story', { token: other.accessToken })).body?.data);
    expect(theirs.items.map((item) => item.id)).not.toContain(first.id);
  });

  it('treats another user story as unknown on every call (404 "Failed to find a Story with this id")', async () => {
    const story = await createStory(owner);
    const token = other.accessToken;
    const board = JSON.stringify(story.storyboard);
    const answers = [
      await callApi(server, `story/${story.id}`, { token }),
      await callApi(server, `story/${story.id}`, { token, method: 'PUT', json: { step: 'elements' } }),
      await postForm(server, `story/${story.id}/elements`, { storyboard: board }, { token }),
      await postForm(server, `story/${story.id}/scenes`, { storyboard: board }, { token }),
      await postForm(server, `story/${story.id}/videos`, { storyboard: board }, { token }),
      await postForm(server, `story/${story.id}/audio`, { storyboard: board }, { token }),
      await postForm(server, `story/${story.id}/concat`, { concat_video_urls: 'x' }, { token }),
      await callApi(server, `story/${story.id}/cancel`, { token, method: 'PUT', json: { part: 'elements' } }),
      await callApi(server, `story/${story.id}`, { token, method: 'DELETE' }),
      await callApi(server, 'story/no-such-story', { token: owner.accessToken }),
    ];
    for (const answer of answers) expect([answer.status, answer.body?.detail]).toEqual([404, NOT_FOUND]);
    expect(await mediaOfStory(story.id)).toEqual([]);
    expect((await callApi(server, `story/${story.id}`, { token: owner.accessToken })).status).toBe(200);
  });
});

describe('saving edits', () => {
  it('saves the storyboard, the step and the idea settings, and refuses bad ones with a readable 400', async () => {
    const story = await createStory(owner);
    const board: Storyboard = {
      ...story.storyboard,
      title: 'Renamed',
      scenes: story.storyboard.scenes.map((scene, index) => (index === 0 ? { ...scene, text: 'A new first scene.', shot: 'close-up', duration: 3 } : scene)),
    };
    const saved = await save(owner, story, { storyboard: board, step: 'elements', style: 'noir', aspect_ratio: '1:1', duration: 30 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const again = asStory(await callApi(server, `story/${story.id}`, { token: owner.accessToken }));
    expect(again).toMatchObject({ step: 'elements', style: 'noir', aspect_ratio: '1:1', duration: 30 });
    expect(again.storyboard.title).toBe('Renamed');
    expect(again.storyboard.scenes[0]).toMatchObject({ text: 'A new first scene.', shot: 'close-up', duration: 3 });

    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ step: 'finished' }, /^step must be one of idea, storyboard, elements, scenes, scriptboard, done\.$/],
      [{ duration: 7 }, /^duration must be one of/],
      [{ idea: 'short' }, /^idea must be 10 to 2000 characters/],
      [{ storyboard: { ...board, scenes: [] } }, /^storyboard is invalid: scenes/],
      [{ storyboard: { ...board, image_model: 'Nope' } }, /^storyboard\.image_model must be one of/],
      [{ storyboard: { ...board, scenes: [{ ...board.scenes[0], element_ids: ['el-99'] }] } }, /^storyboard scene 1 names the element "el-99", which the storyboard does not have\.$/],
      [{ storyboard: { ...board, scenes: [board.scenes[0], board.scenes[0]] } }, /^storyboard: the scene id "scene-1" is used twice\.$/],
      [{ sneaky: true }, /^Request body is invalid/],
    ];
    for (const [json, detail] of refusals) {
      const answer = await save(owner, story, json);
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body?.detail).toMatch(detail);
    }
  });

  it('refuses a storyboard naming media that is not a part of this story, or a part of the wrong kind', async () => {
    const user = await signUpUser(server, 'checker');
    const story = await createStory(user);
    const otherStory = await createStory(user);
    expect((await generate(user, otherStory, 'elements', { ids: 'el-1' })).status).toBe(200);
    const [foreignJob] = await mediaOfStory(otherStory.id);
    const upload = asMedia(await postForm(server, 'image', { image_file: { data: await smallPng(), name: 'u.png', type: 'image/png' } }, { token: user.accessToken }));
    const madeHere = asStory(await generate(user, story, 'elements', { ids: 'el-1' }));
    const ownJob = madeHere.storyboard.elements[0]?.image;
    expect(ownJob).not.toBeNull();
    const withImage = (board: Storyboard, mediaId: string): Storyboard => ({
      ...board,
      elements: board.elements.map((element, index) => (index === 1 ? { ...element, image: { media_id: mediaId, source: 'x' } } : element)),
    });
    for (const mediaId of [foreignJob?.id ?? '', upload.id]) {
      const answer = await save(user, story, { storyboard: withImage(madeHere.storyboard, mediaId) });
      expect(answer.status).toBe(400);
      expect(answer.body?.detail).toBe(`storyboard: the picture of ${madeHere.storyboard.elements[1]?.name} names media ${mediaId}, which is not a part of this story.`);
    }
    // This story's element picture named as a scene video: a part of the wrong kind.
    const asVideo: Storyboard = { ...madeHere.storyboard, scenes: madeHere.storyboard.scenes.map((scene, index) => (index === 0 ? { ...scene, video: ownJob ?? null } : scene)) };
    const wrongKind = await save(user, story, { storyboard: asVideo });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body?.detail).toBe(`storyboard: the video of scene 1 names media ${ownJob?.media_id}, which was not made as one (it is a story-element job).`);
    // Generation calls run the same checks on the board they are sent.
    const viaGenerate = await generate(user, { ...story, storyboard: withImage(madeHere.storyboard, upload.id) }, 'elements');
    expect(viaGenerate.status).toBe(400);
    // Another element of this story may name the same job (the person moved it): allowed.
    const moved = await save(user, story, { storyboard: withImage(madeHere.storyboard, ownJob?.media_id ?? '') });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });

  it('rewrites the scenes and elements from a new idea, keeping the title and models', async () => {
    const story = await createStory(owner, { title: 'Kept', image_model: 'NanoBanana' });
    const rewritten = asStory(await save(owner, story, { idea: 'An old robot repairs a broken windmill in a quiet village.', rewrite: true }));
    expect(rewritten.idea).toBe('An old robot repairs a broken windmill in a quiet village.');
    expect(rewritten.storyboard).toMatchObject({ title: 'Kept', image_model: 'NanoBanana' });
    expect(rewritten.storyboard.scenes.map((scene) => scene.text).join(' ')).toMatch(/robot/i);
    expect(rewritten.storyboard.elements.map((element) => element.name)).not.toContain('Mara');
  });
});

describe('two tabs editing one story (issue 17)', () => {
  it('answers a revision that changes with the storyboard and refuses (412) a save from an older one, keeping the newer board', async () => {
    const story = await createStory(owner);
    expect(story.revision).toMatch(/^[0-9a-f]{14}$/);
    // A step-only save leaves the board and its revision as they are.
    const moved = asStory(await save(owner, story, { step: 'elements' }));
    expect(moved.revision).toBe(story.revision);

    // Tab A saves a changed title from the revision it loaded: accepted, a new revision.
    const tabA = { ...story.storyboard, title: 'Tab A title' };
    const first = await save(owner, story, { storyboard: tabA, revision: story.revision });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const afterA = asStory(first);
    expect(afterA.revision).not.toBe(story.revision);

    // Tab B, still on the first revision, would replace it: refused with a message saying why.
    const tabB = { ...story.storyboard, scenes: story.storyboard.scenes.map((scene, index) => (index === 0 ? { ...scene, shot: 'aerial' as const } : scene)) };
    const stale = await save(owner, story, { storyboard: tabB, revision: story.revision });
    expect([stale.status, stale.body?.detail]).toEqual([
      412,
      'This storyboard was changed in another tab or window since you opened it: load the story again to see those changes.',
    ]);
    const stored = asStory(await callApi(server, `story/${story.id}`, { token: owner.accessToken }));
    expect(stored.storyboard.title).toBe('Tab A title');
    expect(stored.revision).toBe(afterA.revision);

    // Saved again from the newer revision (merged), it is taken.
    const merged = await save(owner, story, { storyboard: { ...tabB, title: 'Tab A title' }, revision: afterA.revision });
    expect(merged.status).toBe(200);
    expect(asStory(merged).storyboard.title).toBe('Tab A title');
    expect(asStory(merged).storyboard.scenes[0]?.shot).toBe('aerial');

    // A paid call sent from an older revision is refused before anything is made or charged.
    const before = await balanceOf(server, owner.sub);
    const paid = await generate(owner, story, 'elements', { revision: story.revision });
    expect(paid.status).toBe(412);
    expect(await balanceOf(server, owner.sub)).toBe(before);
    expect(await mediaOfStory(story.id)).toEqual([]);
  });
});

describe('the narration follows the scenes (issue 17)', () => {
  it('takes a changed scene\'s new words when the board is saved with the narration as it was, so the sound made from the old ones is stale', async () => {
    const story = await createStory(owner);
    const board = story.storyboard;
    expect(board.audio).toMatchObject({ kind: 'speech', text: board.scenes.map((scene) => scene.text).join(' ') });
    const scenes = board.scenes.map((scene, index) => (index === 0 ? { ...scene, text: 'A storm rolls in over the bay.' } : scene));
    const saved = asStory(await save(owner, story, { storyboard: { ...board, scenes } }));
    expect(saved.storyboard.audio.text).toBe(scenes.map((scene) => scene.text).join(' '));
    expect(saved.storyboard.audio.text).not.toContain(board.scenes[0]!.text);

    // A narration the person wrote keeps their words; only a changed scene's old words in it are replaced.
    const own = `Listen. ${scenes[0]!.text} Then nothing.`;
    const written = asStory(await save(owner, story, { storyboard: { ...saved.storyboard, audio: { ...saved.storyboard.audio, text: own } } }));
    const again = written.storyboard.scenes.map((scene, index) => (index === 0 ? { ...scene, text: 'The storm breaks.' } : scene));
    const followed = asStory(await save(owner, story, { storyboard: { ...written.storyboard, scenes: again } }));
    expect(followed.storyboard.audio.text).toBe('Listen. The storm breaks. Then nothing.');
  });
});

describe('making the element pictures', () => {
  it('makes one paid job per element, the first character from the reference picture', async () => {
    const user = await signUpUser(server, 'elements');
    const picture = await uploadPicture(user, '#3366cc');
    const story = await createStory(user, { image_urls: [picture], aspect_ratio: '16:9' });
    const answer = await generate(user, story, 'elements');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const made = asStory(answer);
    const jobs = await mediaOfStory(story.id);
    const { elements } = story.storyboard;
    expect(jobs).toHaveLength(elements.length);
    // Seedream: 4 credits a picture, one debit per job.
    expect(await balanceOf(server, user.sub)).toBe(100 - 4 * elements.length);
    const debits = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit');
    expect(debits.map((row) => [row.job_id, row.amount])).toEqual(jobs.map((job) => [job.id, -4]));
    const look = { style: story.style, aspect_ratio: story.aspect_ratio };
    for (const [index, element] of elements.entries()) {
      const job = jobs.find((item) => item.args.element_id === element.id);
      expect(job).toMatchObject({ tool: STORY_TOOLS.element, kind: 'image', option: 'Seedream', cost: 4 });
      expect(job?.args).toEqual({
        prompt: elementPrompt(look, element),
        aspect_ratio: element.kind === 'place' ? '16:9' : '1:1',
        story_part: 'elements',
        element_id: element.id,
      });
      expect(made.storyboard.elements[index]?.image).toEqual({ media_id: job?.id, source: elementSource(look, story.storyboard, element) });
      expect(made.media[job?.id ?? '']).toMatchObject({ id: job?.id, tool: STORY_TOOLS.element, cost: 4 });
    }
    const firstCharacter = elements.find((element) => element.kind === 'character');
    for (const job of jobs) {
      expect(job.inputs.length).toBe(job.args.element_id === firstCharacter?.id ? 1 : 0);
    }
    // Everything is made or being made: nothing needs work.
    const nothing = await generate(user, made, 'elements');
    expect([nothing.status, nothing.body?.detail]).toEqual([400, 'Nothing to make: every element picture is made and up to date.']);
  });

  it('regenerates only the elements named by ids: one job, one debit', async () => {
    const user = await signUpUser(server, 'regen');
    const story = await createStory(user);
    const first = asStory(await generate(user, story, 'elements'));
    const target = first.storyboard.elements[1];
    // A part still being made is not made twice (nor paid twice).
    const paid = await balanceOf(server, user.sub);
    const running = await generate(user, first, 'elements', { ids: target?.id ?? '' });
    expect([running.status, running.body?.detail]).toEqual([409, 'This part is already being made.']);
    expect(await balanceOf(server, user.sub)).toBe(paid);
    expect(await mediaOfStory(story.id)).toHaveLength(first.storyboard.elements.length);
    const made = asStory(await callApi(server, `story/${story.id}/cancel`, { method: 'PUT', token: user.accessToken, json: { part: 'elements' } }));
    const before = await balanceOf(server, user.sub);
    const count = (await mediaOfStory(story.id)).length;
    const again = await generate(user, made, 'elements', { ids: target?.id ?? '' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const after = asStory(again);
    const jobs = await mediaOfStory(story.id);
    expect(jobs).toHaveLength(count + 1);
    expect(await balanceOf(server, user.sub)).toBe(before - 4);
    const newJob = jobs.at(-1);
    expect(newJob?.args.element_id).toBe(target?.id);
    // Only that element names a new job; the others keep theirs.
    for (const [index, element] of after.storyboard.elements.entries()) {
      if (element.id === target?.id) expect(element.image?.media_id).toBe(newJob?.id);
      else expect(element.image).toEqual(made.storyboard.elements[index]?.image);
    }
    const unknown = await generate(user, after, 'elements', { ids: 'el-404' });
    expect([unknown.status, unknown.body?.detail]).toEqual([400, 'ids: "el-404" is not in this storyboard.']);
  });

  it('runs once per Idempotency-Key: a retry replays the story and debits once; another body with the key is 422', async () => {
    const user = await signUpUser(server, 'idem');
    const story = await createStory(user);
    const headers = { 'Idempotency-Key': 'story-elements-once' };
    const first = await generate(user, story, 'elements', {}, headers);
    const again = await generate(user, story, 'elements', {}, headers);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(asStory(again).storyboard.elements).toEqual(asStory(first).storyboard.elements);
    expect(await mediaOfStory(story.id)).toHaveLength(story.storyboard.elements.length);
    expect(await balanceOf(server, user.sub)).toBe(100 - 4 * story.storyboard.elements.length);
    const different = await generate(user, story, 'elements', { ids: 'el-1' }, headers);
    expect(different.status).toBe(422);
  });

  it('refuses with 402 when the credits do not cover every part, creating nothing', async () => {
    const user = await signUpUser(server, 'short');
    const story = await createStory(user);
    await appendLedgerEntry(server.db, { userSub: user.sub, amount: -95, kind: 'debit', reason: 'spent elsewhere' });
    const cost = 4 * story.storyboard.elements.length;
    const answer = await generate(user, story, 'elements');
    expect(answer.status).toBe(402);
    expect(answer.body?.detail).toBe(`Not enough credits: this costs ${cost} credits and you have 5.`);
    expect(await mediaOfStory(story.id)).toEqual([]);
    expect(await balanceOf(server, user.sub)).toBe(5);
    const after = asStory(await callApi(server, `story/${story.id}`, { token: user.accessToken }));
    expect(after.storyboard.elements.every((element) => element.image === null)).toBe(true);
  });
});

describe('what each step waits for', () => {
  it('refuses scene pictures until their elements have pictures, and videos until their scenes do', async () => {
    const user = await signUpUser(server, 'waiter');
    const story = await createStory(user);
    const board = story.storyboard;
    const sceneOne = board.scenes[0];
    const names = (ids: readonly string[]) => board.elements.filter((element) => ids.includes(element.id)).map((element) => element.name);
    const namesOf = (list: string[]) => (list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`);
    // No element pictures at all.
    const early = await generate(user, story, 'scenes', { ids: sceneOne?.id ?? '' });
    expect(early.status).toBe(400);
    expect(early.body?.detail).toBe(`Make the pictures of ${namesOf(names(sceneOne?.element_ids ?? []))} first.`);
    // Element pictures being made (not yet succeeded): still refused.
    const making = asStory(await generate(user, story, 'elements'));
    const running = await generate(user, making, 'scenes');
    expect(running.status).toBe(400);
    expect(running.body?.detail).toMatch(/^Make the pictures of .+ first\.$/);
    const videos = await generate(user, making, 'videos');
    expect(videos.status).toBe(400);
    const numbers = board.scenes.map((_scene, index) => String(index + 1));
    expect(videos.body?.detail).toBe(`Make the pictures of scenes ${namesOf(numbers)} first.`);
    const oneVideo = await generate(user, making, 'videos', { ids: board.scenes[1]?.id ?? '' });
    expect(oneVideo.body?.detail).toBe('Make the picture of scene 2 first.');
    // Nothing was made by the refused calls.
    expect((await mediaOfStory(story.id)).every((job) => job.tool === STORY_TOOLS.element)).toBe(true);
  });
});

describe('the sound', () => {
  it('makes the narration as one paid audio job as long as the film, and refuses no sound', async () => {
    const user = await signUpUser(server, 'narrator');
    const story = await createStory(user);
    const answer = await generate(user, story, 'audio');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const made = asStory(answer);
    const [job] = await mediaOfStory(story.id);
    expect(job).toMatchObject({ tool: STORY_TOOLS.audio, kind: 'audio', option: 'Text2Speech', cost: 8 });
    const length = story.storyboard.scenes.reduce((sum, scene) => sum + scene.duration, 0);
    expect(job?.args).toEqual({
      prompt: story.storyboard.audio.text,
      voice: story.storyboard.audio.voice,
      audio_kind: 'speech',
      duration: length,
      story_part: 'audio',
    });
    expect(made.storyboard.audio.track?.media_id).toBe(job?.id);
    expect(await balanceOf(server, user.sub)).toBe(92);
    const music = { ...made.storyboard, audio: { kind: 'music' as const, text: 'soft waves and strings', voice: '', track: made.storyboard.audio.track } };
    // While the narration is being made, no second sound starts; once it is cancelled, music can.
    expect((await generate(user, { ...made, storyboard: music }, 'audio')).status).toBe(409);
    await callApi(server, `story/${story.id}/cancel`, { method: 'PUT', token: user.accessToken, json: { part: 'audio' } });
    const musicJob = await generate(user, { ...made, storyboard: music }, 'audio');
    expect(musicJob.status).toBe(200);
    expect((await mediaOfStory(story.id)).at(-1)).toMatchObject({ option: 'Lyria2', args: { audio_kind: 'music', prompt: 'soft waves and strings' } });
    const none = { ...made.storyboard, audio: { kind: 'none' as const, text: '', voice: '', track: null } };
    const refused = await generate(user, { ...made, storyboard: none }, 'audio');
    expect([refused.status, refused.body?.detail]).toEqual([400, 'The storyboard has no sound to make: choose a narration or music first.']);
  });
});

describe('cancelling, joining and deleting', () => {
  it('cancels every live job of a part and refunds each one', async () => {
    const user = await signUpUser(server, 'canceller');
    const story = await createStory(user);
    const made = asStory(await generate(user, story, 'elements'));
    expect(await balanceOf(server, user.sub)).toBeLessThan(100);
    const answer = await callApi(server, `story/${story.id}/cancel`, { method: 'PUT', token: user.accessToken, json: { part: 'elements' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const cancelled = asStory(answer);
    for (const element of made.storyboard.elements) {
      expect(cancelled.media[element.image?.media_id ?? '']).toMatchObject({ status: 'cancelled', refunded: true });
    }
    expect(await balanceOf(server, user.sub)).toBe(100);
    const refunds = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'refund');
    expect(refunds).toHaveLength(made.storyboard.elements.length);
    // Cancelled parts need work again.
    expect((await generate(user, cancelled, 'elements', { ids: 'el-1' })).status).toBe(200);
    const badPart = await callApi(server, `story/${story.id}/cancel`, { method: 'PUT', token: user.accessToken, json: { part: 'everything' } });
    expect([badPart.status, badPart.body?.detail]).toEqual([400, 'part must be one of elements, scenes, videos, audio, concat.']);
  });

  it('never makes active a take that is being made over, nor one that was not made (issue 21 takes)', async () => {
    const user = await signUpUser(server, 'retaker');
    const story = await createStory(user);
    const cancel = () => callApi(server, `story/${story.id}/cancel`, { method: 'PUT', token: user.accessToken, json: { part: 'elements' } });
    await generate(user, story, 'elements');
    const cancelled = asStory(await cancel());
    const first = cancelled.storyboard.elements.find((element) => element.id === 'el-1')?.image;
    // Made again while the first take was cancelled: the new one runs, Undo would return to the first.
    const again = asStory(await generate(user, cancelled, 'elements', { ids: 'el-1' }));
    expect(again.storyboard.elements.find((element) => element.id === 'el-1')?.image_takes?.before).toBe(first?.media_id);
    const undo = () => callApi(server, `story/${story.id}/elements/el-1/undo`, { method: 'POST', token: user.accessToken, json: {} });
    const running = await undo();
    expect([running.status, running.body?.detail]).toEqual([409, 'This picture is being made: wait for it to finish, or cancel it first.']);
    await cancel();
    const notMade = await undo();
    expect([notMade.status, notMade.body?.detail]).toEqual([409, 'That take has no picture: it was not made.']);
    const picked = await callApi(server, `story/${story.id}/elements/el-1/takes/${first?.media_id ?? ''}/select`, { method: 'POST', token: user.accessToken, json: {} });
    expect([picked.status, picked.body?.detail]).toEqual([409, 'That take has no picture: it was not made.']);
  });

  it('joins only videos of this story', async () => {
    const user = await signUpUser(server, 'joiner');
    const story = await createStory(user);
    const picture = await uploadPicture(user, '#112233');
    const none = await postForm(server, `story/${story.id}/concat`, {}, { token: user.accessToken });
    expect([none.status, none.body?.detail]).toEqual([400, 'A film joins 1 to 12 videos (concat_video_urls); you sent 0.']);
    const notVideo = await postForm(server, `story/${story.id}/concat`, { concat_video_urls: [picture] }, { token: user.accessToken });
    expect([notVideo.status, notVideo.body?.detail]).toEqual([400, 'concat_video_urls is not a video.']);
    // The story's own film (or any video of it not made for a scene) is not a scene's video.
    const upload = await postForm(server, 'image', { image_file: { data: await smallPng(96, 64, '#445566'), name: 'f.png', type: 'image/png' } }, { token: user.accessToken });
    const film = asMedia(upload);
    await server.db.query('UPDATE media SET story_id = $1, tool = $2 WHERE id = $3', [story.id, STORY_TOOLS.concat, film.id]);
    await server.db.query("UPDATE media_files SET content_type = 'video/mp4' WHERE media_id = $1", [film.id]);
    const ownFilm = await postForm(server, `story/${story.id}/concat`, { concat_video_urls: [film.items[0]?.url ?? ''] }, { token: user.accessToken });
    expect([ownFilm.status, ownFilm.body?.detail]).toEqual([400, 'concat_video_urls 1 is not a video of this story.']);
  });

  it('deletes the story with its jobs: live ones cancelled and refunded, then 404', async () => {
    const user = await signUpUser(server, 'deleter');
    const story = await createStory(user);
    asStory(await generate(user, story, 'elements'));
    const jobs = await mediaOfStory(story.id);
    expect(jobs.length).toBeGreaterThan(0);
    const deleted = await callApi(server, `story/${story.id}`, { token: user.accessToken, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(storyDeletedSchema.parse(deleted.body?.data)).toEqual({ id: story.id, deleted: true });
    expect(await balanceOf(server, user.sub)).toBe(100);
    expect(await mediaOfStory(story.id)).toEqual([]);
    for (const job of jobs) expect((await callApi(server, `media/${job.id}`, { token: user.accessToken })).status).toBe(404);
    for (const answer of [
      await callApi(server, `story/${story.id}`, { token: user.accessToken }),
      await callApi(server, `story/${story.id}`, { token: user.accessToken, method: 'DELETE' }),
    ]) {
      expect([answer.status, answer.body?.detail]).toEqual([404, NOT_FOUND]);
    }
  });

  it('removes the stories of a deleted account', async () => {
    const user = await signUpUser(server, 'leaver');
    const story = await createStory(user);
    await generate(user, story, 'elements');
    expect((await callApi(server, 'users', { token: user.accessToken, method: 'DELETE' })).status).toBe(200);
    const { rows } = await server.db.query('SELECT id FROM stories WHERE user_sub = $1', [user.sub]);
    expect(rows).toEqual([]);
    expect(await mediaOfStory(story.id)).toEqual([]);
  });

  it('removes the guest account stories in the weekly clean-up, refunding their live jobs', async () => {
    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'kinora-guest' });
    const story = await createStory({ ...guest, username: 'guest', email: 'guest@kinora.local' });
    await generate({ ...guest, username: 'guest', email: 'guest@kinora.local' }, story, 'elements');
    expect((await mediaOfStory(story.id)).length).toBeGreaterThan(0);
    const result = await server.db.transaction((tx) => cleanGuestContent(tx));
    expect(result.guests).toBe(1);
    const { rows } = await server.db.query('SELECT id FROM stories WHERE user_sub = $1', [guest.sub]);
    expect(rows).toEqual([]);
    expect(await mediaOfStory(story.id)).toEqual([]);
  });
});
