import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STORY_IMAGE_MODEL, DEFAULT_STORY_VIDEO_MODEL } from '../../../src/config/story.ts';
import { storyboardSchema, type Storyboard } from '../../../src/services/schemas/story.ts';
import type { Database, Queryable } from '../../../server/src/db/database.ts';
import { insertMedia, newPublicId } from '../../../server/src/db/media.ts';
import { insertStory, updateStory, type StoryRow } from '../../../server/src/db/stories.ts';
import { createFileSigner } from '../../../server/src/jobs/file-signing.ts';
import type { LinkMaker } from '../../../server/src/routes/media-answer.ts';
import { storyAnswer, storySummary } from '../../../server/src/routes/story-answer.ts';
import { openTestDatabase } from '../helpers/database-template.ts';

/**
 * A story's answer loads the jobs its board names in one query, whatever the number of scenes
 * (issue 18 item 4: it was one query per part), every take of each part with them (issue 21), and
 * still leaves out jobs that are not the owner's.
 */

let db: Database;
const OWNER = 'story-answer-owner';
const OTHER = 'story-answer-other';
const links: LinkMaker = { origin: 'http://kinora.test', signer: createFileSigner('story-answer-secret') };

beforeAll(async () => {
  db = await openTestDatabase();
  for (const sub of [OWNER, OTHER]) await db.query(`INSERT INTO users (sub, username, email) VALUES ($1, $1, $2)`, [sub, `${sub}@example.test`]);
});
afterAll(async () => {
  await db?.close();
});

/** `db` counting the statements sent through it. */
function counting(): { on: Queryable; count: () => number } {
  let sent = 0;
  return {
    on: {
      query: (sql, params) => {
        sent += 1;
        return db.query(sql, params);
      },
    },
    count: () => sent,
  };
}

async function job(userSub: string): Promise<string> {
  const id = newPublicId();
  await insertMedia(db, { id, userSub, kind: 'image', tool: 'story-scene', status: 'success_image', items: [{ status: 'new' }] });
  return id;
}

/** A story of `scenes` scenes, each with a picture and a video job of the owner's. */
async function storyWith(scenes: number): Promise<StoryRow> {
  const board: Storyboard = storyboardSchema.parse({
    image_model: DEFAULT_STORY_IMAGE_MODEL,
    video_model: DEFAULT_STORY_VIDEO_MODEL,
    scenes: await Promise.all(
      Array.from({ length: scenes }, async (_, index) => ({
        id: `scene-${index}`,
        text: `Scene ${index + 1}.`,
        image: { media_id: await job(OWNER), source: 's' },
        video: { media_id: await job(OWNER), source: 's' },
      })),
    ),
  });
  const row = await insertStory(db, { userSub: OWNER, idea: 'A lighthouse keeper', duration: 30, aspectRatio: '16:9', style: 'Watercolour', imageUrls: [], storyboard: board });
  const saved = await updateStory(db, row.id, OWNER, { storyboard: board });
  if (!saved) throw new Error('story not saved');
  return saved;
}

describe('storyAnswer', () => {
  it('loads the jobs of a 2-scene and a 12-scene story with the same number of queries', async () => {
    const small = counting();
    const smallAnswer = await storyAnswer(small.on, await storyWith(2), links);
    const large = counting();
    const largeAnswer = await storyAnswer(large.on, await storyWith(12), links);
    expect(Object.keys(smallAnswer.media)).toHaveLength(4);
    expect(Object.keys(largeAnswer.media)).toHaveLength(24);
    expect(large.count()).toBe(small.count());
    // The jobs, their files, the owners of the files they refer to, the reference pictures' owners.
    expect(large.count()).toBeLessThanOrEqual(4);
  });

  it('loads every take of every part in the same query (issue 21 takes)', async () => {
    const plain = counting();
    await storyAnswer(plain.on, await storyWith(12), links);
    const row = await storyWith(12);
    const takes = async (active: { media_id: string; source: string } | null) => ({
      items: [{ media_id: await job(OWNER), source: 'old' }, { media_id: await job(OWNER), source: 'older' }, ...(active ? [active] : [])],
      before: null,
    });
    const scenes = await Promise.all(row.storyboard.scenes.map(async (scene) => ({ ...scene, image_takes: await takes(scene.image), video_takes: await takes(scene.video) })));
    const sent = counting();
    const answer = await storyAnswer(sent.on, { ...row, storyboard: { ...row.storyboard, scenes } }, links);
    expect(Object.keys(answer.media)).toHaveLength(12 * 2 * 3);
    expect(sent.count()).toBe(plain.count());
  });

  it("leaves out a job the board names that is another user's", async () => {
    const row = await storyWith(1);
    const foreign = await job(OTHER);
    const board = { ...row.storyboard, scenes: row.storyboard.scenes.map((scene) => ({ ...scene, video: { media_id: foreign, source: 's' } })) };
    const answer = await storyAnswer(db, { ...row, storyboard: board }, links);
    expect(Object.keys(answer.media)).toEqual([board.scenes[0]?.image?.media_id]);
  });
});

describe('storySummary', () => {
  it('finds the cover among every scene picture in one query', async () => {
    const row = await storyWith(12);
    const sent = counting();
    const summary = await storySummary(sent.on, row, links);
    expect(summary).toMatchObject({ id: row.id, scene_count: 12, cover_url: null });
    expect(sent.count()).toBe(1);
  });
});
