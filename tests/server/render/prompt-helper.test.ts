import { describe, expect, it } from 'vitest';
import { cleanPrompt, derivePrompt, PROMPT_PURPOSES, PromptHelperInputError } from '../../../server/src/render/prompt-helper.ts';

const refine = (prompt: string, mode = 'image') => derivePrompt({ option: 'RefinePrompt', prompt, mode });
const suggest = (prompt: string, mode = 'image') => derivePrompt({ option: 'SuggestPrompt', prompt, mode });
const inspire = (prompt: string, mode = 'image') => derivePrompt({ option: 'InspireMe', prompt, mode });

describe('cleanPrompt', () => {
  it('trims, strips one pair of quotes, collapses spaces and drops doubled words', () => {
    expect(cleanPrompt('  "a  cat cat on the   sofa ,sleeping"  ')).toBe('a cat on the sofa, sleeping');
    expect(cleanPrompt('The the dog')).toBe('The dog');
    expect(cleanPrompt('""quoted""')).toBe('"quoted"');
  });

  it('keeps a repeat after punctuation, which is meant', () => {
    expect(cleanPrompt('no, no, never')).toBe('no, no, never');
  });
});

describe('RefinePrompt', () => {
  it('cleans, capitalises, ends with a full stop and adds one concrete detail', () => {
    const refined = refine('  "a  cat cat on the   sofa ,sleeping"  ');
    expect(refined.startsWith('A cat on the sofa, sleeping. ')).toBe(true);
    const detail = refined.slice('A cat on the sofa, sleeping. '.length);
    expect(detail).toMatch(/^[A-Z][^.]*\.$/);
  });

  it('is stable: refining a refined prompt changes nothing', () => {
    for (const mode of PROMPT_PURPOSES) {
      const once = refine('a lighthouse in a storm', mode);
      expect(refine(once, mode)).toBe(once);
    }
  });

  it('only tidies speech, whose words are read out', () => {
    expect(refine('  hello   hello world ', 'speech')).toBe('Hello world.');
    expect(refine('are you there?', 'speech')).toBe('Are you there?');
  });

  it('is deterministic and gives an idea for an empty prompt', () => {
    expect(refine('a red car')).toBe(refine('a red car'));
    expect(refine('   ')).toBe(inspire('', 'image'));
  });
});

describe('SuggestPrompt', () => {
  it('expands the prompt with details for its subject', () => {
    const suggested = suggest('portrait of an old fisherman');
    expect(suggested.startsWith('Portrait of an old fisherman, ')).toBe(true);
    const additions = suggested.split(', ').slice(1);
    expect(additions.length).toBeGreaterThanOrEqual(3);
    expect(additions.some((addition) => ['soft window light', 'shallow depth of field', '85 mm lens', 'natural skin texture', 'muted background', 'expressive eyes in sharp focus'].includes(addition))).toBe(true);
  });

  it('differs per prompt and mode and is deterministic', () => {
    expect(suggest('a forest lake')).toBe(suggest('a forest lake'));
    expect(suggest('a forest lake')).not.toBe(suggest('a city street'));
    expect(suggest('rain', 'sound')).not.toBe(suggest('rain', 'music'));
  });

  it('adds a sentence to speech instead of descriptive words', () => {
    const suggested = suggest('welcome to the show', 'speech');
    expect(suggested).toMatch(/^Welcome to the show\. [A-Z].*\.$/);
  });

  it('starts from an idea when the prompt is empty', () => {
    expect(suggest('').length).toBeGreaterThan(20);
  });
});

describe('Image2Prompt', () => {
  const description = 'A bright landscape picture (800×600) dominated by blue tones, soft contrast, vivid colours';

  it('returns the picture description, with the prompt appended when given', () => {
    expect(derivePrompt({ option: 'Image2Prompt', prompt: '', mode: 'image', imageDescription: description })).toBe(`${description}.`);
    expect(derivePrompt({ option: 'Image2Prompt', prompt: 'as a watercolour', mode: 'image', imageDescription: description })).toBe(
      `${description}. As a watercolour.`,
    );
  });

  it('throws a PromptHelperInputError without a description', () => {
    for (const imageDescription of [undefined, null, '  ']) {
      expect(() => derivePrompt({ option: 'Image2Prompt', prompt: 'x', mode: 'image', imageDescription })).toThrow(PromptHelperInputError);
    }
    expect(() => derivePrompt({ option: 'Image2Prompt', prompt: 'x', mode: 'image' })).toThrow('Image2Prompt needs an image_url or image_file');
  });
});

describe('InspireMe', () => {
  it('gives an idea per mode, seeded by the prompt', () => {
    for (const mode of PROMPT_PURPOSES) {
      expect(inspire('seed', mode)).toBe(inspire('seed', mode));
      expect(inspire('seed', mode).length).toBeGreaterThan(20);
    }
    const ideas = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((seed) => inspire(seed)));
    expect(ideas.size).toBeGreaterThan(2);
    expect(inspire('x', 'speech')).not.toBe(inspire('x', 'image'));
  });

  it('reads an unknown mode as image', () => {
    expect(inspire('seed', 'hologram')).toBe(inspire('seed', 'image'));
  });
});
