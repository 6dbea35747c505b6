import { describe, expect, it } from 'vitest';
import {
  audioSource,
  elementPrompt,
  elementSource,
  idsNeedingWork,
  needsWork,
  partState,
  sceneImageSource,
  scenePrompt,
  sceneVideoPrompt,
  sceneVideoSource,
  storyAudioPrice,
  storyConcatSource,
  storyCost,
  storyHash,
  storyImageModels,
  storyPartPrice,
  storyPartStates,
  storyVideoModels,
  type StatusOf,
} from '@/lib/story';
import { DEFAULT_STORY_IMAGE_MODEL, DEFAULT_STORY_VIDEO_MODEL } from '@/config/story';
import type { Storyboard } from '@/services/schemas/story';
import { buildBoard, buildStory, LOOK, withElements, withScenes, withSound, withVideos } from '../machines/story/story.fixtures';

const statusOf =
  (story: { media: Record<string, { status: string }> }): StatusOf =>
  (mediaId) => {
    const status = story.media[mediaId]?.status;
    if (!status) return undefined;
    if (status.startsWith('success')) return 'success';
    if (status === 'failed' || status === 'nsfw' || status === 'cancelled') return status;
    return 'processing';
  };

const MADE = withSound(withVideos(withScenes(withElements(buildStory()))));
const statesOf = (board: Storyboard, look = LOOK) => storyPartStates(look, board, statusOf(MADE));

describe('fingerprints', () => {
  it('are stable 14-digit hashes that differ with their input', () => {
    expect(storyHash('a')).toMatch(/^[0-9a-f]{14}$/);
    expect(storyHash('a')).toBe(storyHash('a'));
    expect(storyHash('a')).not.toBe(storyHash('b'));
  });

  it('of an element follow the look, the model and what the element is, not its id or picture', () => {
    const board = buildBoard();
    const element = board.elements[0]!;
    const base = elementSource(LOOK, board, element);
    expect(elementSource(LOOK, board, { ...element, name: ' Mara ' })).toBe(base);
    expect(elementSource(LOOK, board, { ...element, name: 'Mira' })).not.toBe(base);
    expect(elementSource({ ...LOOK, style: 'noir' }, board, element)).not.toBe(base);
    expect(elementSource({ ...LOOK, aspect_ratio: '1:1' }, board, element)).not.toBe(base);
    expect(elementSource(LOOK, { ...board, image_model: 'NanoBanana' }, element)).not.toBe(base);
  });

  it('of a scene picture follow its words, shot and element pictures, not its length', () => {
    const board = MADE.storyboard;
    const scene = board.scenes[0]!;
    const base = sceneImageSource(LOOK, board, scene);
    expect(sceneImageSource(LOOK, board, { ...scene, duration: 9 } as typeof scene)).toBe(base);
    expect(sceneImageSource(LOOK, board, { ...scene, shot: 'aerial' })).not.toBe(base);
    expect(sceneImageSource(LOOK, board, { ...scene, element_ids: ['el-2', 'el-1'] })).not.toBe(base);
    const repictured = { ...board, elements: board.elements.map((element) => (element.id === 'el-2' ? { ...element, image: { media_id: 'other', source: '' } } : element)) };
    expect(sceneImageSource(LOOK, repictured, scene)).not.toBe(base);
  });

  it('of a video follow its picture, shot, length, words and motion model', () => {
    const board = MADE.storyboard;
    const scene = board.scenes[0]!;
    const base = sceneVideoSource(board, scene);
    expect(sceneVideoSource(board, { ...scene, duration: 6 })).not.toBe(base);
    expect(sceneVideoSource(board, { ...scene, image: { media_id: 'other', source: '' } })).not.toBe(base);
    expect(sceneVideoSource({ ...board, video_model: 'Auto' }, scene)).not.toBe(base);
  });

  it('of the sound ignore the voice of music, and of the film follow the clips’ order', () => {
    expect(audioSource({ kind: 'music', text: 'waves', voice: 'a' })).toBe(audioSource({ kind: 'music', text: 'waves', voice: 'b' }));
    expect(audioSource({ kind: 'speech', text: 'hi', voice: 'a' })).not.toBe(audioSource({ kind: 'speech', text: 'hi', voice: 'b' }));
    expect(storyConcatSource(['v1', 'v2'], null)).not.toBe(storyConcatSource(['v2', 'v1'], null));
    expect(storyConcatSource(['v1'], null)).not.toBe(storyConcatSource(['v1'], 'a1'));
  });
});

describe('prompts', () => {
  it('name the subject, the framing and the style', () => {
    expect(elementPrompt(LOOK, { kind: 'character', name: 'Mara', description: 'a keeper' })).toBe(
      'Mara: a keeper, character portrait, full figure, cinematic film still, dramatic light',
    );
    expect(scenePrompt(LOOK, { text: 'Mara climbs.', shot: 'close-up' })).toBe('Mara climbs., close up shot, cinematic film still, dramatic light');
    expect(sceneVideoPrompt({ text: 'Mara climbs.', shot: 'wide' })).toMatch(/^Mara climbs\./);
  });
});

describe('part states', () => {
  it('read missing, running, failed, ready and stale', () => {
    const asset = { media_id: 'm', source: 's' };
    expect(partState(null, 's', undefined)).toBe('missing');
    expect(partState(asset, 's', 'processing')).toBe('running');
    expect(partState(asset, 's', 'failed')).toBe('failed');
    expect(partState(asset, 's', 'cancelled')).toBe('failed');
    expect(partState(asset, 's', undefined)).toBe('failed');
    expect(partState(asset, 's', 'success')).toBe('ready');
    expect(partState(asset, 'changed', 'success')).toBe('stale');
  });

  it('of a board made from end to end are all ready', () => {
    expect(statesOf(MADE.storyboard)).toEqual({
      elements: { 'el-1': 'ready', 'el-2': 'ready' },
      sceneImages: { 'scene-1': 'ready', 'scene-2': 'ready' },
      sceneVideos: { 'scene-1': 'ready', 'scene-2': 'ready' },
      audio: 'ready',
    });
  });

  it('run stale downstream from a changed element, to the scenes showing it and their videos only', () => {
    const board = { ...MADE.storyboard, elements: MADE.storyboard.elements.map((element) => (element.id === 'el-2' ? { ...element, name: 'The tower' } : element)) };
    expect(statesOf(board)).toEqual({
      elements: { 'el-1': 'ready', 'el-2': 'stale' },
      sceneImages: { 'scene-1': 'stale', 'scene-2': 'ready' },
      sceneVideos: { 'scene-1': 'stale', 'scene-2': 'ready' },
      audio: 'ready',
    });
  });

  it('make a scene’s video stale when only its length changes, and everything stale with a new look', () => {
    const board = { ...MADE.storyboard, scenes: MADE.storyboard.scenes.map((scene) => (scene.id === 'scene-2' ? { ...scene, duration: 8 } : scene)) };
    expect(statesOf(board).sceneImages).toEqual({ 'scene-1': 'ready', 'scene-2': 'ready' });
    expect(statesOf(board).sceneVideos).toEqual({ 'scene-1': 'ready', 'scene-2': 'stale' });
    const noir = statesOf(MADE.storyboard, { ...LOOK, style: 'noir' });
    expect(Object.values(noir.elements)).toEqual(['stale', 'stale']);
    expect(Object.values(noir.sceneVideos)).toEqual(['stale', 'stale']);
  });

  it('count no sound as ready and a changed narration as stale', () => {
    expect(statesOf({ ...MADE.storyboard, audio: { ...MADE.storyboard.audio, kind: 'none' } }).audio).toBe('ready');
    expect(statesOf({ ...MADE.storyboard, audio: { ...MADE.storyboard.audio, text: 'Other words.' } }).audio).toBe('stale');
  });

  it('say which parts need work: missing, failed or stale, never running or ready', () => {
    expect(['missing', 'failed', 'stale', 'running', 'ready'].map((state) => needsWork(state as never))).toEqual([true, true, true, false, false]);
    expect(idsNeedingWork({ a: 'ready', b: 'stale', c: 'running', d: 'missing', e: 'failed' })).toEqual(['b', 'd', 'e']);
  });
});

describe('models and costs', () => {
  it('offer scene-image models and first-frame motion models, the defaults among them', () => {
    expect(storyImageModels().map((model) => model.value)).toContain(DEFAULT_STORY_IMAGE_MODEL);
    expect(storyVideoModels().map((model) => model.value)).toContain(DEFAULT_STORY_VIDEO_MODEL);
    expect(storyVideoModels().some((model) => model.value === 'TryOnVideo')).toBe(false);
  });

  it('price pictures at the image model, videos at the motion model, a sound at 8 credits', () => {
    const board = buildBoard();
    expect(storyPartPrice(board, 'elements')).toBe(4);
    expect(storyPartPrice(board, 'scenes')).toBe(4);
    expect(storyPartPrice(board, 'videos')).toBe(20);
    expect(storyPartPrice({ ...board, image_model: 'Nope' }, 'elements')).toBe(0);
    expect(storyCost(board, 'videos', 3)).toEqual({ count: 3, each: 20, total: 60 });
    expect(storyAudioPrice('speech')).toBe(8);
    expect(storyAudioPrice('music')).toBe(8);
    expect(storyAudioPrice('none')).toBe(0);
  });
});
