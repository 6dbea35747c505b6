import { describe, expect, it } from 'vitest';
import {
  ADJUST_DIRECTIONS,
  AI_STORY_STEPS,
  ASPECT_RATIOS,
  AUDIO_SYNC_MODES,
  DEFAULT_PROMPT_HELPER_MODE,
  EDIT_OPERATIONS,
  FRAME_SELECTIONS,
  GENERATION_STATUSES,
  LANGUAGES,
  NUMBER_KINDS,
  PROMPT_HELPER_MODES,
  SPEED_QUALITY_OPTIONS,
  UPSCALE_OPTIONS,
  YES_NO,
} from '@/config/enums';
import { DEFAULT_VOICE, VOICES } from '@/config/voices';

describe('enumerations of SPEC §9', () => {
  it('has the prompt helper modes with InspireMe as the default', () => {
    expect(PROMPT_HELPER_MODES.map((mode) => mode.value)).toEqual(['SuggestPrompt', 'RefinePrompt', 'Image2Prompt', 'InspireMe']);
    expect(DEFAULT_PROMPT_HELPER_MODE).toBe('InspireMe');
  });

  it('has the aspect ratios, upscale options and sync modes', () => {
    expect(ASPECT_RATIOS).toEqual(['16:9', '4:3', '1:1', '3:4', '9:16', 'Origin']);
    expect(UPSCALE_OPTIONS).toEqual([
      { value: 'DeepClean', label: '1X DeepClean' },
      { value: '2X&DeepClean', label: '2X&DeepClean' },
      { value: '4X&DeepClean', label: '4X&DeepClean' },
    ]);
    expect(AUDIO_SYNC_MODES.map((mode) => mode.value)).toEqual(['MatchVideo', 'PadAudio', 'MatchAudio', 'Strict']);
  });

  it('has the small lists', () => {
    expect(FRAME_SELECTIONS).toEqual(['First', 'Last']);
    expect(SPEED_QUALITY_OPTIONS).toEqual(['Fast', 'Normal']);
    expect(ADJUST_DIRECTIONS).toEqual(['increase', 'decrease']);
    expect(NUMBER_KINDS).toEqual(['int', 'float']);
    expect(YES_NO).toEqual(['Yes', 'No']);
    expect(EDIT_OPERATIONS).toEqual(['CropToAspectRatio', 'EnhanceVideo', 'SoundEffect', 'LumaReframeVideo', 'AttachAudio']);
    expect(AI_STORY_STEPS).toEqual(['idea', 'storyboard', 'elements', 'scenes', 'scriptboard']);
  });

  it('has the ten languages', () => {
    expect(LANGUAGES.map((language) => language.label)).toEqual([
      'English',
      'Chinese',
      'Japanese',
      'Korean',
      'French',
      'German',
      'Spanish',
      'Arabic',
      'Turkish',
      'Hindi',
    ]);
  });

  it('has 21 distinct voices and a default among them', () => {
    expect(VOICES).toHaveLength(21);
    expect(new Set(VOICES.map((voice) => voice.value)).size).toBe(21);
    expect(VOICES.map((voice) => voice.value)).toContain(DEFAULT_VOICE);
  });

  it('groups the generation statuses of SPEC §4', () => {
    expect(GENERATION_STATUSES.success).toEqual(['success_image', 'success_source', 'success_3d', 'success']);
    expect(GENERATION_STATUSES.processing).toEqual([
      'queue_3d',
      'processing_source',
      'processing_3d',
      'queue_bullet',
      'processing_bullet',
      'queue_source',
      'processing',
    ]);
    expect(GENERATION_STATUSES.item).toEqual(['new', 'processing', 'failed', 'nsfw']);
  });
});
