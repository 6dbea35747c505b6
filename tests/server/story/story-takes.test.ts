import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storyPartStates } from '../../../src/lib/story.ts';
import { storySchema, type Story, type Storyboard } from '../../../src/services/schemas/story.ts';
import { balanceOf, hasEnded, pollStatus, postForm } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Takes of a story's parts (issue 21 item 4) against the real server, jobs rendered for real: a
 * regeneration keeps the earlier take, Undo returns to it (the newer one stays a take), a take is
 * picked, and what was made from a part goes stale or ready again with the take picked. A scene is
 * drawn from its elements' active pictures, whichever take that is.
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;
let user: User;
let stranger: User;

const RENDER_TIMEOUT_MS = 120_000;
const IDEA = 'Mara, a young fisher, finds a glowing shell on the beach. She carries it to the old lighthouse at night.';

const asStory = (answer: { status: number; body: { data?: unknown } | null }): Story => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return storySchema.parse(answer.body?.data);
};

async function generate(story: Story, part: string, ids?: string[]): Promise<Story> {
  return asStory(
    await postForm(
      server,
      `story/${story.id}/${part}`,
      { storyboard: JSON.stringify(story.storyboard), ...(ids ? { ids } : {}) },
      { token: user.accessToken, headers: { 'Idempotency-Key': `${part}-${Date.now()}-${Math.random()}` } },
    ),
  );
}

const load = async (story: Story): Promise<Story> => asStory(await callApi(server, `story/${story.id}`, { token: user.accessToken }));

async function made(story: Story, ids: readonly string[]): Promise<Story> {
  for (const id of ids) expect(await pollStatus(server, id, hasEnded, RENDER_TIMEOUT_MS)).toMatch(/^success/);
  return load(story);
}

const takeCall = (story: Story, path: string, options: { token?: string; json?: Record<string, unknown> } = {}) =>
  callApi(server, `story/${story.id}/${path}`, { method: 'POST', token: options.token ?? user.accessToken, json: options.json ?? {} });

const statusOf = (story: Story) => (id: string) => {
  const status = story.media[id]?.status;
  if (!status) return undefined;
  if (status.startsWith('success')) return 'success' as const;
  if (status.startsWith('queue') || status.startsWith('processing')) return 'processing' as const;
  return status as 'failed';
};
const statesOf = (story: Story) => storyPartStates({ style: story.style, aspect_ratio: story.aspect_ratio }, story.storyboard, statusOf(story));

/** A story of one 2-second scene with its elements, their pictures and the scene's picture made. */
async function sceneMade(): Promise<Story> {
  const created = asStory(await postForm(server, 'story', { idea: IDEA, duration: '15', aspect_ratio: '16:9' }, { token: user.accessToken }));
  const written = created.storyboard;
  const scene = written.scenes.find((item) => item.element_ids.length >= 2) ?? written.scenes[0];
  if (!scene) throw new Error('the storyboard has no scene');
  const board: Storyboard = { ...written, scenes: [{ ...scene, duration: 2 }], elements: written.elements.filter((element) => scene.element_ids.includes(element.id)) };
  const saved = asStory(await callApi(server, `story/${created.id}`, { method: 'PUT', token: user.accessToken, json: { storyboard: board } }));
  const elements = await generate(saved, 'elements');
  const pictured = await made(elements, elements.storyboard.elements.map((element) => element.image?.media_id ?? ''));
  const scenes = await generate(pictured, 'scenes');
  return made(scenes, [scenes.storyboard.scenes[0]?.image?.media_id ?? '']);
}

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 20, pollIntervalMs: 100, concurrency: 2 } });
  [user, stranger] = await Promise.all([signUpUser(server, 'director'), signUpUser(server, 'onlooker')]);
});

afterAll(async () => {
  await server?.close();
});

describe('takes of a story part', () => {
  it(
    'keeps the earlier take on a regeneration; undo returns to it, the newer stays a take; a take is picked; refusals say why',
    async () => {
      const story = await sceneMade();
      const element = story.storyboard.elements[0];
      if (!element?.image) throw new Error('no element picture');
      const first = element.image;
      // Made once: its one take, nothing to undo.
      const noUndo = await takeCall(story, `elements/${element.id}/undo`);
      expect([noUndo.status, noUndo.body?.detail]).toEqual([409, 'Nothing to undo: this picture was not made again since it was chosen.']);

      const balance = await balanceOf(server, user.sub);
      const again = await generate(story, 'elements', [element.id]);
      const second = again.storyboard.elements[0]?.image;
      expect(second?.media_id).not.toBe(first.media_id);
      expect(again.storyboard.elements[0]?.image_takes).toEqual({ items: [first, second], before: first.media_id });
      // Both takes' jobs come with the story, so the card can show them.
      expect(Object.keys(again.media)).toEqual(expect.arrayContaining([first.media_id, second?.media_id]));
      const regenerated = await made(again, [second?.media_id ?? '']);

      // Undo: the earlier take is active again; the newer one stays, to be picked again.
      const undone = asStory(await takeCall(regenerated, `elements/${element.id}/undo`));
      expect(undone.storyboard.elements[0]?.image).toEqual(first);
      expect(undone.storyboard.elements[0]?.image_takes).toEqual({ items: [first, second], before: null });
      expect(undone.revision).not.toBe(regenerated.revision);
      expect((await load(undone)).storyboard.elements[0]?.image).toEqual(first);
      // Choosing is free.
      expect(await balanceOf(server, user.sub)).toBe(balance - 4);
      const twice = await takeCall(undone, `elements/${element.id}/undo`);
      expect(twice.status).toBe(409);

      // Pick the newer take again.
      const picked = asStory(await takeCall(undone, `elements/${element.id}/takes/${second?.media_id ?? ''}/select`));
      expect(picked.storyboard.elements[0]?.image).toEqual(second);

      // Refusals: not a take of this part, no such element, another person's story, a board from an older revision, a bad body.
      const sceneTake = story.storyboard.scenes[0]?.image?.media_id ?? '';
      const notATake = await takeCall(picked, `elements/${element.id}/takes/${sceneTake}/select`);
      expect([notATake.status, notATake.body?.detail]).toEqual([404, `Media ${sceneTake} is not a take of this element's picture.`]);
      const noElement = await takeCall(picked, 'elements/el-99/undo');
      expect([noElement.status, noElement.body?.detail]).toEqual([404, 'This storyboard has no element "el-99".']);
      const foreign = await takeCall(picked, `elements/${element.id}/takes/${first.media_id}/select`, { token: stranger.accessToken });
      expect([foreign.status, foreign.body?.detail]).toEqual([404, 'Failed to find a Story with this id']);
      const stale = await takeCall(picked, `elements/${element.id}/takes/${first.media_id}/select`, { json: { storyboard: picked.storyboard, revision: story.revision } });
      expect(stale.status).toBe(412);
      const unknownField = await takeCall(picked, `elements/${element.id}/undo`, { json: { take: 1 } });
      expect(unknownField.status).toBe(400);
      expect((await load(picked)).storyboard.elements[0]?.image).toEqual(second);

      // The draft sent with the call is saved with the choice (edits not yet saved are kept).
      const draft = { ...picked.storyboard, title: 'The shell' };
      const withDraft = asStory(
        await takeCall(picked, `elements/${element.id}/takes/${first.media_id}/select`, { json: { storyboard: draft, revision: picked.revision } }),
      );
      expect(withDraft.storyboard.title).toBe('The shell');
      expect(withDraft.storyboard.elements[0]?.image).toEqual(first);
    },
    RENDER_TIMEOUT_MS * 3,
  );

  it(
    'draws a scene from its elements\' active takes; picking another scene picture makes its video stale, undo makes it ready again',
    async () => {
      const story = await sceneMade();
      const scene = story.storyboard.scenes[0];
      if (!scene?.image) throw new Error('no scene picture');
      const firstPicture = scene.image;

      // A new take of an element, then back to the first: the next scene picture is drawn from the active one.
      const element = story.storyboard.elements[0];
      const firstElement = element?.image;
      const again = await generate(story, 'elements', [element?.id ?? '']);
      const back = asStory(await takeCall(await made(again, [again.storyboard.elements[0]?.image?.media_id ?? '']), `elements/${element?.id ?? ''}/undo`));
      expect(back.storyboard.elements[0]?.image).toEqual(firstElement);
      // The scene's picture is up to date: it was drawn from that same take.
      expect(statesOf(back).sceneImages[scene.id]).toBe('ready');

      // The video of the scene, made from its first picture.
      const filmed = await generate(back, 'videos');
      const video = filmed.storyboard.scenes[0]?.video;
      const withVideo = await made(filmed, [video?.media_id ?? '']);
      expect(statesOf(withVideo).sceneVideos[scene.id]).toBe('ready');

      // A new picture of the scene: the video goes stale (it moved the other picture).
      const redrawn = await generate(withVideo, 'scenes', [scene.id]);
      const secondPicture = redrawn.storyboard.scenes[0]?.image;
      const { rows } = await server.db.query<{ inputs: { file_id: string }[] }>('SELECT inputs FROM media WHERE id = $1', [secondPicture?.media_id ?? '']);
      const elementFiles = redrawn.storyboard.scenes[0]?.element_ids.map((id) => {
        const mediaId = redrawn.storyboard.elements.find((item) => item.id === id)?.image?.media_id ?? '';
        return redrawn.media[mediaId]?.items[0]?.file_id;
      });
      expect(rows[0]?.inputs.map((input) => input.file_id)).toEqual(elementFiles);
      const withSecond = await made(redrawn, [secondPicture?.media_id ?? '']);
      expect(statesOf(withSecond).sceneVideos[scene.id]).toBe('stale');
      expect(withSecond.storyboard.scenes[0]?.image_takes).toEqual({ items: [firstPicture, secondPicture], before: firstPicture.media_id });

      // Undo the picture: the video is ready again; picking the new picture makes it stale once more.
      const undone = asStory(await takeCall(withSecond, `scenes/${scene.id}/undo`));
      expect(undone.storyboard.scenes[0]?.image).toEqual(firstPicture);
      expect(statesOf(undone).sceneVideos[scene.id]).toBe('ready');
      const picked = asStory(await takeCall(undone, `scenes/${scene.id}/takes/${secondPicture?.media_id ?? ''}/select`));
      expect(statesOf(picked).sceneVideos[scene.id]).toBe('stale');
      // The video's own takes: one, nothing to undo.
      const videoUndo = await takeCall(picked, `videos/${scene.id}/undo`);
      expect([videoUndo.status, videoUndo.body?.detail]).toEqual([409, 'Nothing to undo: this video was not made again since it was chosen.']);
    },
    RENDER_TIMEOUT_MS * 3,
  );
});
