import { describe, expect, it } from 'vitest';
import { DEFAULT_STORY_IMAGE_MODEL, DEFAULT_STORY_VIDEO_MODEL, STORY_DURATIONS, STORY_SCENE_DURATION, STORY_SCENES } from '../../../src/config/story.ts';
import { DEFAULT_VOICE } from '../../../src/config/voices.ts';
import { storyboardSchema, type Storyboard } from '../../../src/services/schemas/story.ts';
import { WRITTEN_ELEMENTS_MAX, writeStoryboard, type StoryboardInput } from '../../../server/src/routes/story-board.ts';

/** writeStoryboard (issue 6): the storyboard POST story writes from an idea — free, synchronous, deterministic. */

const LIGHTHOUSE =
  'Mara, a young fisherwoman, finds a glowing lantern on the beach. She follows its light to the old lighthouse, where the keeper has waited for years. Together they light the great lamp and ships come home through the storm.';
const DETECTIVE =
  'Rain falls on the city at night. A detective walks through empty streets, looking for the stolen painting. In a cafe, a stranger slides a key across the table; the detective runs to the museum, but the painting is already gone. At dawn, she finds it on the rooftop.';

const write = (overrides: Partial<StoryboardInput> = {}): Storyboard =>
  writeStoryboard({ idea: LIGHTHOUSE, duration: 30, imageModel: DEFAULT_STORY_IMAGE_MODEL, videoModel: DEFAULT_STORY_VIDEO_MODEL, ...overrides });

const total = (board: Storyboard) => board.scenes.reduce((sum, scene) => sum + scene.duration, 0);
const elementNamed = (board: Storyboard, name: string) => board.elements.find((element) => element.name === name);

describe('writeStoryboard', () => {
  it('writes a board the storyboard schema accepts, with the models asked for', () => {
    const board = write();
    expect(storyboardSchema.parse(board)).toEqual(board);
    expect(board).toMatchObject({ image_model: DEFAULT_STORY_IMAGE_MODEL, video_model: DEFAULT_STORY_VIDEO_MODEL });
  });

  it.each(STORY_DURATIONS.map((duration) => [duration]))('fills a %i s film with scenes of about five seconds that add up to it', (duration) => {
    for (const idea of [LIGHTHOUSE, DETECTIVE, 'A small fox finds a glowing lantern in the forest.']) {
      const board = write({ idea, duration });
      expect(board.scenes).toHaveLength(Math.min(STORY_SCENES.max, Math.max(STORY_SCENES.min, Math.round(duration / 5))));
      expect(total(board)).toBe(duration);
      for (const scene of board.scenes) {
        expect(scene.duration).toBeGreaterThanOrEqual(STORY_SCENE_DURATION.min);
        expect(scene.duration).toBeLessThanOrEqual(STORY_SCENE_DURATION.max);
      }
    }
  });

  it('keeps the scene count and lengths within their limits for any length', () => {
    for (const duration of [1, 7, 12, 200]) {
      const board = write({ duration });
      expect(board.scenes.length).toBeGreaterThanOrEqual(STORY_SCENES.min);
      expect(board.scenes.length).toBeLessThanOrEqual(STORY_SCENES.max);
      expect(() => storyboardSchema.parse(board)).not.toThrow();
    }
    expect(total(write({ duration: 7 }))).toBe(7);
    expect(total(write({ duration: 200 }))).toBe(STORY_SCENES.max * STORY_SCENE_DURATION.max);
  });

  it("tells the idea's own sentences in order, one or more to a scene", () => {
    const board = write({ idea: DETECTIVE, duration: 15 });
    const text = board.scenes.map((scene) => scene.text).join(' ');
    expect(text).toContain('Rain falls on the city at night.');
    expect(text.indexOf('detective walks')).toBeLessThan(text.indexOf('stranger slides'));
    expect(text.indexOf('stranger slides')).toBeLessThan(text.indexOf('finds it on the rooftop'));
  });

  it("cuts sentences at their clauses when the idea is shorter than the film", () => {
    const board = write({ idea: DETECTIVE, duration: 45 });
    expect(board.scenes.map((scene) => scene.text)).toEqual(
      expect.arrayContaining(['In a cafe, a stranger slides a key across the table.', 'The detective runs to the museum.', 'But the painting is already gone.']),
    );
  });

  it('frames the film wide first and wide or from above last, cycling wide → medium → close-up between', () => {
    const board = write({ idea: DETECTIVE, duration: 45 });
    const shots = board.scenes.map((scene) => scene.shot);
    expect(shots[0]).toBe('wide');
    expect(['wide', 'aerial']).toContain(shots.at(-1));
    expect(shots.slice(1, 4)).toEqual(['medium', 'close-up', 'wide']);
    expect(write({ duration: 10 }).scenes.map((scene) => scene.shot)).toEqual(['wide', 'wide']);
  });

  it('finds the characters, places and objects the idea names: names, people and animals, places, things', () => {
    const board = write();
    expect(elementNamed(board, 'Mara')).toMatchObject({ kind: 'character', description: 'a young fisherwoman', image: null });
    expect(elementNamed(board, 'The keeper')?.kind).toBe('character');
    expect(elementNamed(board, 'The beach')?.kind).toBe('place');
    expect(elementNamed(board, 'The lighthouse')).toMatchObject({ kind: 'place', description: 'old lighthouse' });
    expect(elementNamed(board, 'The lantern')).toMatchObject({ kind: 'object', description: 'glowing lantern' });
    // The first word of a sentence is not taken for a name ("Rain falls…").
    expect(elementNamed(write({ idea: DETECTIVE }), 'Rain')).toBeUndefined();
    expect(elementNamed(write({ idea: DETECTIVE }), 'The detective')?.kind).toBe('character');
  });

  it('always has a character and a place, and at most eight elements, characters first', () => {
    for (const idea of [LIGHTHOUSE, DETECTIVE, 'Everything is quiet. Nothing moves for a long time and then it does.']) {
      const board = write({ idea });
      const kinds = board.elements.map((element) => element.kind);
      expect(kinds).toContain('character');
      expect(kinds).toContain('place');
      expect(board.elements.length).toBeLessThanOrEqual(WRITTEN_ELEMENTS_MAX);
      expect(kinds).toEqual([...kinds].sort((a, b) => ['character', 'place', 'object'].indexOf(a) - ['character', 'place', 'object'].indexOf(b)));
    }
  });

  it("names each scene's elements: those it mentions, and where and with whom it happens", () => {
    const board = write();
    const ids = new Set(board.elements.map((element) => element.id));
    const idOf = (name: string) => elementNamed(board, name)?.id ?? '';
    for (const scene of board.scenes) {
      expect(scene.element_ids.length).toBeGreaterThan(0);
      for (const id of scene.element_ids) expect(ids.has(id)).toBe(true);
      expect(scene.element_ids.some((id) => board.elements.find((element) => element.id === id)?.kind === 'place')).toBe(true);
    }
    const finding = board.scenes.find((scene) => scene.text.startsWith('Mara, a young fisherwoman'));
    expect(finding?.element_ids).toEqual(expect.arrayContaining([idOf('Mara'), idOf('The beach'), idOf('The lantern')]));
    // "She follows its light…": Mara is still there.
    const following = board.scenes.find((scene) => scene.text.startsWith('She follows'));
    expect(following?.element_ids).toEqual(expect.arrayContaining([idOf('Mara'), idOf('The keeper'), idOf('The lighthouse')]));
  });

  it('gives a scene that names nothing the main character and the main place', () => {
    const board = write({ idea: 'Everything is quiet. Nothing moves for a long time and then it does.', duration: 15 });
    const [character, place] = board.elements;
    expect(character).toMatchObject({ id: 'el-1', kind: 'character' });
    expect(place).toMatchObject({ id: 'el-2', kind: 'place' });
    for (const scene of board.scenes) expect(scene.element_ids).toEqual(['el-1', 'el-2']);
  });

  it("numbers scenes scene-1… and elements el-1…", () => {
    const board = write();
    expect(board.scenes.map((scene) => scene.id)).toEqual(board.scenes.map((_, index) => `scene-${index + 1}`));
    expect(board.elements.map((element) => element.id)).toEqual(board.elements.map((_, index) => `el-${index + 1}`));
    for (const scene of board.scenes) expect(scene).toMatchObject({ image: null, video: null });
  });

  it('titles the story from the idea unless a title is given', () => {
    expect(write().title).toBe('Mara and the lantern');
    expect(write({ title: '  The Keeper  ' }).title).toBe('The Keeper');
    const untitled = write({ idea: 'Everything is quiet. Nothing moves for a long time and then it does.' }).title;
    expect(untitled).toBe('Everything is quiet');
    expect(write({ idea: `${'word '.repeat(400)}.` }).title.length).toBeLessThanOrEqual(80);
  });

  it("reads the scenes aloud as the narration, in the default voice", () => {
    const board = write();
    expect(board.audio).toEqual({ kind: 'speech', text: board.scenes.map((scene) => scene.text).join(' '), voice: DEFAULT_VOICE, track: null });
  });

  it('is deterministic: the same idea gives the same board', () => {
    expect(write({ idea: DETECTIVE, duration: 60 })).toEqual(write({ idea: DETECTIVE, duration: 60 }));
  });

  it('keeps a long idea within the text limits', () => {
    const idea = `Mara walks ${'and walks '.repeat(190)}to the sea.`.slice(0, 2000);
    const board = write({ idea, duration: 15 });
    expect(() => storyboardSchema.parse(board)).not.toThrow();
    for (const scene of board.scenes) expect(scene.text.length).toBeLessThanOrEqual(600);
  });
});
