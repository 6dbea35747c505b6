import { audioSource, elementSource, sceneImageSource, sceneVideoSource, storyConcatSource } from '@/lib/story';
import type { Story, StoryAsset, Storyboard, StoryElement, StoryScene } from '@/services/schemas/story';
import type { Media } from '@/services/schemas/media';
import { STORY_TOOLS } from '@/config/story';
import { placeTake, takeSlot, type TakePart } from '@/lib/story-takes';
import { buildMedia } from '../../services/media.fixtures';

/** Story fixtures: a two-scene storyboard with a character and a place, and its parts made step by step. */

export const LOOK: { style: string; aspect_ratio: string } = { style: 'cinematic', aspect_ratio: '16:9' };

export function buildElement(overrides: Partial<StoryElement> = {}): StoryElement {
  return { id: 'el-1', kind: 'character', name: 'Mara', description: 'a young keeper', image: null, ...overrides };
}

export function buildScene(overrides: Partial<StoryScene> = {}): StoryScene {
  return {
    id: 'scene-1',
    text: 'Mara climbs the lighthouse.',
    shot: 'wide',
    duration: 5,
    element_ids: ['el-1', 'el-2'],
    image: null,
    video: null,
    ...overrides,
  };
}

export function buildBoard(overrides: Partial<Storyboard> = {}): Storyboard {
  return {
    title: 'The keeper',
    image_model: 'Seedream',
    video_model: 'PicoMotion',
    scenes: [
      buildScene(),
      buildScene({ id: 'scene-2', text: 'Mara lights the lamp.', shot: 'close-up', duration: 4, element_ids: ['el-1'] }),
    ],
    elements: [
      buildElement(),
      buildElement({ id: 'el-2', kind: 'place', name: 'The lighthouse', description: 'on a cliff' }),
    ],
    audio: { kind: 'none', text: '', voice: '', track: null },
    ...overrides,
  };
}

export function buildStory(overrides: Partial<Story> = {}): Story {
  return {
    id: 'story-1',
    idea: 'Mara keeps a lighthouse and lights the lamp on a stormy night.',
    duration: 15,
    aspect_ratio: LOOK.aspect_ratio,
    style: LOOK.style,
    image_urls: [],
    step: 'storyboard',
    storyboard: buildBoard(),
    revision: 'rev-1',
    media: {},
    concat: null,
    concat_source: '',
    args: {},
    created_at: '2025-01-01T10:00:00.000Z',
    updated_at: '2025-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export type JobState = 'running' | 'queued' | 'done' | 'failed';

/** A story job in a given state; finished ones carry their signed file. */
export function buildStoryJob(id: string, tool: string, state: JobState, overrides: Partial<Media> = {}): Media {
  const kind = tool === STORY_TOOLS.video || tool === STORY_TOOLS.concat ? 'video' : tool === STORY_TOOLS.audio ? 'audio' : 'image';
  const extension = kind === 'video' ? 'mp4' : kind === 'audio' ? 'wav' : 'png';
  const status = { running: 'processing_source', queued: 'queue_source', done: kind === 'image' ? 'success_image' : 'success', failed: 'failed' }[state];
  return buildMedia({
    id,
    kind,
    tool,
    status,
    progress: state === 'done' ? 100 : state === 'running' ? 40 : 0,
    option: null,
    cost: 4,
    error: state === 'failed' ? 'The render engine failed.' : null,
    args: {},
    items:
      state === 'done'
        ? [{ type: kind, status: 'success', url: `http://localhost/api/files/${id}.${extension}`, thumbnail_url: `http://localhost/api/files/${id}.jpg`, file_id: id }]
        : [],
    ...overrides,
  });
}

const asset = (mediaId: string, source: string): StoryAsset => ({ media_id: mediaId, source });

/** Every element pictured (jobs `img-<element id>`), made from the board as it is. */
export function withElements(story: Story, state: JobState = 'done'): Story {
  const board = story.storyboard;
  const elements = board.elements.map((element) => ({ ...element, image: asset(`img-${element.id}`, elementSource(story, board, element)) }));
  const media = Object.fromEntries(elements.map((element) => [`img-${element.id}`, buildStoryJob(`img-${element.id}`, STORY_TOOLS.element, state)]));
  return { ...story, storyboard: { ...board, elements }, media: { ...story.media, ...media } };
}

/** Every scene pictured (jobs `pic-<scene id>`), from the element pictures as they are. */
export function withScenes(story: Story, state: JobState = 'done', only?: readonly string[]): Story {
  const board = story.storyboard;
  const chosen = (scene: StoryScene) => !only || only.includes(scene.id);
  const scenes = board.scenes.map((scene) => (chosen(scene) ? { ...scene, image: asset(`pic-${scene.id}`, sceneImageSource(story, board, scene)) } : scene));
  const media = Object.fromEntries(board.scenes.filter(chosen).map((scene) => [`pic-${scene.id}`, buildStoryJob(`pic-${scene.id}`, STORY_TOOLS.scene, state)]));
  return { ...story, storyboard: { ...board, scenes }, media: { ...story.media, ...media } };
}

/** Every scene filmed (jobs `vid-<scene id>`), from the scene pictures as they are. */
export function withVideos(story: Story, state: JobState = 'done'): Story {
  const board = story.storyboard;
  const scenes = board.scenes.map((scene) => ({ ...scene, video: asset(`vid-${scene.id}`, sceneVideoSource(board, scene)) }));
  const media = Object.fromEntries(board.scenes.map((scene) => [`vid-${scene.id}`, buildStoryJob(`vid-${scene.id}`, STORY_TOOLS.video, state)]));
  return { ...story, storyboard: { ...board, scenes }, media: { ...story.media, ...media } };
}

/** A narration, made (job `snd-1`). */
export function withSound(story: Story, state: JobState = 'done'): Story {
  const audio = { kind: 'speech' as const, text: 'Mara keeps the light.', voice: 'Rachel', track: null };
  const track = asset('snd-1', audioSource(audio));
  return {
    ...story,
    storyboard: { ...story.storyboard, audio: { ...audio, track } },
    media: { ...story.media, 'snd-1': buildStoryJob('snd-1', STORY_TOOLS.audio, state) },
  };
}

/** The film joined from the videos and sound as they are (job `film-1`). */
export function withFilm(story: Story, state: JobState = 'done'): Story {
  const board = story.storyboard;
  const track = board.audio.kind === 'none' ? null : board.audio.track;
  return {
    ...story,
    concat: buildStoryJob('film-1', STORY_TOOLS.concat, state, { cost: 0 }),
    concat_source: storyConcatSource(
      board.scenes.map((scene) => scene.video?.media_id ?? ''),
      track?.media_id ?? null,
    ),
  };
}

/** The same story with some jobs in another state (as a poll answers). */
export function withJobs(story: Story, jobs: Record<string, JobState>): Story {
  const media = { ...story.media };
  for (const [id, state] of Object.entries(jobs)) {
    const job = media[id];
    if (job) media[id] = buildStoryJob(id, job.tool, state);
  }
  const concat = story.concat && jobs[story.concat.id] ? buildStoryJob(story.concat.id, story.concat.tool, jobs[story.concat.id]!, { cost: 0 }) : story.concat;
  return { ...story, media, concat };
}

/** Stories at each point of the flow. */
export const NEW_BOARD = buildStory();
export const ELEMENTS_MADE = withElements(buildStory({ step: 'elements' }));
export const SCENES_MADE = withScenes(ELEMENTS_MADE);
export const VIDEOS_MADE = withVideos({ ...SCENES_MADE, step: 'scriptboard' });
export const FILM_MADE = withFilm({ ...VIDEOS_MADE, step: 'done' });

/** A part made again (job `<its job>-2`): two takes, the new one active, Undo back to the first (src/lib/story-takes.ts). */
export function withRetake(story: Story, part: TakePart, partId: string, state: JobState = 'done'): Story {
  const board = story.storyboard;
  const slot = takeSlot(board, part, partId);
  if (!slot?.active) throw new Error(`${part} ${partId} has no take to make again`);
  const id = `${slot.active.media_id}-2`;
  const tool = part === 'elements' ? STORY_TOOLS.element : part === 'scenes' ? STORY_TOOLS.scene : STORY_TOOLS.video;
  return {
    ...story,
    storyboard: placeTake(board, part, partId, asset(id, slot.active.source)),
    media: { ...story.media, [id]: buildStoryJob(id, tool, state) },
  };
}

/** Scenes made, then scene 1's picture made again (job `pic-scene-1-2`). */
export const SCENE_RETAKEN = withRetake({ ...SCENES_MADE, step: 'scenes' }, 'scenes', 'scene-1');
