import { describe, expect, it } from 'vitest';
import { DEFAULT_STORY_IMAGE_MODEL, DEFAULT_STORY_VIDEO_MODEL, STORY_TOOLS } from '../../../src/config/story.ts';
import { elementSource, sceneImageSource, storyAudioPrice, storyPartPrice } from '../../../src/lib/story.ts';
import { storyboardSchema, type Storyboard } from '../../../src/services/schemas/story.ts';
import type { StoryMediaInfo } from '../../../server/src/db/stories.ts';
import { chosenIds, jobTargets, paidStoryJob, placeJobs, planAudio, planElements, planScenes, planVideos, type StoryPlanSubject } from '../../../server/src/jobs/story-plan.ts';
import { HttpError } from '../../../server/src/routes/http.ts';
import type { CheckedBoard } from '../../../server/src/routes/story-input.ts';

/**
 * AI Story planning as pure functions (issue 18 item 4): which jobs one paid call makes, at what
 * price, from which inputs, and where each result goes in the board. No server, no database.
 */

const story: StoryPlanSubject = { id: 'story-1', style: 'Watercolour', aspect_ratio: '16:9', image_urls: [{ file_id: 'ref-file' }] };

const board = (change: Partial<Storyboard> = {}): Storyboard =>
  storyboardSchema.parse({
    title: 'The lighthouse',
    image_model: DEFAULT_STORY_IMAGE_MODEL,
    video_model: DEFAULT_STORY_VIDEO_MODEL,
    elements: [
      { id: 'e-ana', kind: 'character', name: 'Ana', description: 'A keeper' },
      { id: 'e-tower', kind: 'place', name: 'The tower', description: 'On a cliff' },
    ],
    scenes: [
      { id: 's-1', text: 'Ana climbs the stairs.', element_ids: ['e-ana', 'e-tower'], duration: 5 },
      { id: 's-2', text: 'The light turns.', element_ids: ['e-tower'], duration: 5 },
    ],
    ...change,
  });

/** A checked board whose named jobs all succeeded with one result file each (`file-<media id>`). */
function checked(value: Storyboard): CheckedBoard {
  const media = new Map<string, StoryMediaInfo>();
  const named = [
    ...value.elements.map((element) => element.image),
    ...value.scenes.flatMap((scene) => [scene.image, scene.video]),
  ].filter((asset) => asset !== null);
  for (const asset of named) {
    media.set(asset.media_id, { id: asset.media_id, user_sub: 'u', story_id: story.id, tool: 't', status: 'success', items: [{ status: 'success', file_id: `file-${asset.media_id}` }] });
  }
  return { board: value, media, statusOf: (id) => (media.has(id) ? 'success' : undefined) };
}

const errorOf = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
};

describe('chosenIds', () => {
  it('takes every part needing work when none are sent, and refuses when none need it', () => {
    expect(chosenIds(undefined, ['a', 'b'], ['b'], 'scene picture')).toEqual(['b']);
    expect(chosenIds([], ['a', 'b'], ['a', 'b'], 'scene picture')).toEqual(['a', 'b']);
    expect(errorOf(() => chosenIds(undefined, ['a'], [], 'scene picture'))).toMatchObject({
      statusCode: 400,
      message: 'Nothing to make: every scene picture is made and up to date.',
    });
  });

  it('keeps board order for the ids sent and refuses one not in the board', () => {
    expect(chosenIds(['b', 'a'], ['a', 'b', 'c'], [], 'element picture')).toEqual(['a', 'b']);
    const error = errorOf(() => chosenIds(['z'], ['a'], ['a'], 'element picture'));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 400, message: 'ids: "z" is not in this storyboard.' });
  });
});

describe('planElements', () => {
  it('plans one picture per element, the first character drawn from the reference picture, places square and backdrops wide', () => {
    const value = board();
    const jobs = planElements(story, checked(value), undefined);
    expect(jobs.map((job) => [job.kind, job.tool, job.endpoint, job.option, job.args.element_id, job.args.aspect_ratio])).toEqual([
      ['image', STORY_TOOLS.element, 'story/elements', DEFAULT_STORY_IMAGE_MODEL, 'e-ana', '1:1'],
      ['image', STORY_TOOLS.element, 'story/elements', DEFAULT_STORY_IMAGE_MODEL, 'e-tower', '16:9'],
    ]);
    expect(jobs[0]?.inputs).toEqual([{ field: 'image_urls', file_id: 'ref-file' }]);
    expect(jobs[1]?.inputs).toEqual([]);
    expect(jobs.every((job) => job.price === storyPartPrice(value, 'elements'))).toBe(true);
    expect(jobs[0]?.reason).toMatch(/^AI Story · picture of Ana · /);
    const look = { style: story.style, aspect_ratio: story.aspect_ratio };
    expect(jobs[0]?.source).toBe(elementSource(look, value, value.elements[0] ?? { kind: 'character', name: '', description: '' }));
  });

  it('plans only the element sent', () => {
    expect(planElements(story, checked(board()), ['e-tower']).map((job) => job.args.element_id)).toEqual(['e-tower']);
  });
});

describe('planScenes and planVideos', () => {
  it('refuses scene pictures whose elements have no picture yet, naming them', () => {
    expect(errorOf(() => planScenes(story, checked(board()), ['s-2']))).toMatchObject({ statusCode: 400, message: 'Make the pictures of The tower first.' });
  });

  it('draws a scene picture from its elements\' pictures, its place as the backdrop', () => {
    const value = board();
    const withPictures = placeJobs(value, planElements(story, checked(value), undefined));
    const jobs = planScenes(story, checked(withPictures), ['s-1']);
    expect(jobs).toHaveLength(1);
    const [job] = jobs;
    const [ana, tower] = withPictures.elements;
    expect(job?.inputs).toEqual([
      { field: 'image_urls', file_id: `file-${ana?.image?.media_id}` },
      { field: 'image_urls', file_id: `file-${tower?.image?.media_id}` },
    ]);
    expect(job?.args).toMatchObject({ element_kinds: ['character', 'place'], scene_id: 's-1', story_part: 'scenes', aspect_ratio: '16:9' });
    expect(job?.reason).toMatch(/^AI Story · picture of scene 1 · /);
    const look = { style: story.style, aspect_ratio: story.aspect_ratio };
    expect(job?.source).toBe(sceneImageSource(look, withPictures, withPictures.scenes[0] ?? { text: '', shot: 'medium', element_ids: [] }));
  });

  it('refuses a scene video before its picture, then moves the picture made', () => {
    const value = board();
    expect(errorOf(() => planVideos(story, checked(value), ['s-2']))).toMatchObject({ statusCode: 400, message: 'Make the picture of scene 2 first.' });
    const withPicture: Storyboard = { ...value, scenes: value.scenes.map((scene) => (scene.id === 's-2' ? { ...scene, image: { media_id: 'pic-2', source: 'x' } } : scene)) };
    const [job] = planVideos(story, checked(withPicture), ['s-2']);
    expect(job).toMatchObject({ kind: 'video', version: '3', option: DEFAULT_STORY_VIDEO_MODEL, inputs: [{ field: 'image_urls', file_id: 'file-pic-2' }] });
    expect(job?.args).toMatchObject({ creation_type: 'ai-motion', scene_id: 's-2', story_part: 'videos' });
    expect(job?.price).toBe(storyPartPrice(withPicture, 'videos'));
  });
});

describe('planAudio', () => {
  it('refuses a board with no sound or no words, and plans the narration at its price', () => {
    expect(errorOf(() => planAudio(checked(board())))).toMatchObject({ statusCode: 400, message: 'The storyboard has no sound to make: choose a narration or music first.' });
    const silent = board({ audio: { kind: 'speech', text: ' ', voice: 'Ana', track: null } });
    expect(errorOf(() => planAudio(checked(silent)))).toMatchObject({ statusCode: 400, message: 'Write the narration first.' });
    const spoken = board({ audio: { kind: 'speech', text: 'Once upon a tide.', voice: 'Ana', track: null } });
    const [job] = planAudio(checked(spoken));
    expect(job).toMatchObject({ kind: 'audio', price: storyAudioPrice('speech') });
    expect(job?.args).toMatchObject({ prompt: 'Once upon a tide.', voice: 'Ana', audio_kind: 'speech', duration: 10, story_part: 'audio' });
  });
});

describe('placing and charging planned jobs', () => {
  it('names each job in the board where its result goes, and finds what was there before', () => {
    const value = board();
    const jobs = planElements(story, checked(value), undefined);
    expect(jobTargets(value, jobs)).toEqual([]);
    const placed = placeJobs(value, jobs);
    expect(placed.elements.map((element) => element.image?.media_id)).toEqual(jobs.map((job) => job.id));
    expect(placed.elements.map((element) => element.image?.source)).toEqual(jobs.map((job) => job.source));
    expect(jobTargets(placed, jobs)).toEqual(jobs.map((job) => job.id));
  });

  it('hands chargeJobs one queued media row of this story per job', () => {
    const [job] = planElements(story, checked(board()), ['e-tower']);
    if (!job) throw new Error('no job planned');
    expect(paidStoryJob(story, job)).toEqual({
      media: {
        id: job.id,
        kind: 'image',
        tool: STORY_TOOLS.element,
        endpoint: 'story/elements',
        option: DEFAULT_STORY_IMAGE_MODEL,
        args: job.args,
        imageUrls: [],
        inputs: [],
        items: [{ status: 'new' }],
        version: undefined,
        storyId: 'story-1',
      },
      price: job.price,
      reason: job.reason,
    });
  });
});
