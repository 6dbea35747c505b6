import { describe, expect, it } from 'vitest';
import { ASSET_TOOLS, optionsForTool } from '@/config/asset-tools';
import { generationToolBySlug, type GenerationToolSpec } from '@/config/generation-tools';
import { MESSAGES } from '@/config/messages';
import {
  defaultFormValues,
  generationFields,
  generationFormSchema,
  pictureSlots,
  promptNeed,
} from '@/screens/tools/generation-form';

const spec = (slug: string): GenerationToolSpec => {
  const found = generationToolBySlug(slug);
  if (!found) throw new Error(`no tool ${slug}`);
  return found;
};
const model = (value: string) => ASSET_TOOLS.find((option) => option.value === value);

describe('the generation form rules', () => {
  it('asks for a prompt by the tool rule, or by the model flag when the rule says "model"', () => {
    expect(promptNeed(spec('text-to-image'), model('Seedream'))).toBe('required');
    expect(promptNeed(spec('reimagine'), model('Remake'))).toBe('optional');
    expect(promptNeed(spec('face-swap'), model('MagicFaceSwap'))).toBe('hidden');
    expect(promptNeed(spec('edit-image'), model('FluxKontextPro'))).toBe('required');
    expect(promptNeed(spec('edit-image'), model('Upscale'))).toBe('hidden');
  });

  it('shows the second picture only for a model whose end_frame flag is 1', () => {
    const replaceBackground = spec('replace-bg');
    expect(pictureSlots(replaceBackground, model('RemoveBackground')).map((slot) => slot.label)).toEqual(['Subject']);
    expect(pictureSlots(replaceBackground, model('ReplaceBackground')).map((slot) => [slot.label, slot.required])).toEqual([
      ['Subject', true],
      ['Background picture', false],
    ]);
  });

  it('gives face swap a target and faces, growing up to three faces', () => {
    const faceSwap = spec('face-swap');
    expect(pictureSlots(faceSwap, model('MagicFaceSwap')).map((slot) => [slot.label, slot.face])).toEqual([
      ['Target picture', false],
      ['Face 1', true],
    ]);
    expect(pictureSlots(faceSwap, model('MagicFaceSwap'), { image_urls: ['a', 'b', 'c', 'd', 'e'] }).map((slot) => slot.label)).toEqual([
      'Target picture',
      'Face 1',
      'Face 2',
      'Face 3',
    ]);
  });

  it('removing an added slot removes exactly that one: the others keep their keys, labels follow the order', () => {
    const elements = spec('image-elements');
    const option = model(optionsForTool(ASSET_TOOLS, 'image-elements')[0]!.value);
    expect(pictureSlots(elements, option, { image_urls: ['a', 'b'] }).map((slot) => [slot.key, slot.label, slot.removable])).toEqual([
      ['image_urls-0', 'Elements 1', false],
      ['image_urls-1', 'Elements 2', false],
      ['image_urls-a', 'Elements 3', true],
      ['image_urls-b', 'Elements 4', true],
    ]);
    // "Elements 3" (id a) removed: b stays b, now third.
    expect(pictureSlots(elements, option, { image_urls: ['b'] }).map((slot) => [slot.key, slot.label])).toEqual([
      ['image_urls-0', 'Elements 1'],
      ['image_urls-1', 'Elements 2'],
      ['image_urls-b', 'Elements 3'],
    ]);
  });

  it('refuses image to image without a picture with "No upload file"', () => {
    const imageToImage = spec('image-to-image');
    const option = model('Seedream');
    const slots = pictureSlots(imageToImage, option);
    const result = generationFormSchema(imageToImage, option, slots).safeParse({
      ...defaultFormValues(imageToImage, optionsForTool(ASSET_TOOLS, 'image-to-image')),
      prompt: 'make it blue',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([MESSAGES.noUploadFile]);
  });

  it('builds the call fields: repeated image_urls, face order indices, async_mode', () => {
    const faceSwap = spec('face-swap');
    const option = model('EaselFaceSwap');
    const slots = pictureSlots(faceSwap, option, { image_urls: ['2'] });
    const values = {
      ...defaultFormValues(faceSwap, optionsForTool(ASSET_TOOLS, 'face-swap')),
      option: 'EaselFaceSwap',
      prompt: 'ignored: face swap takes no prompt',
      pictures: { 'image_urls-0': 'u:target', 'image_urls-1': 'u:face-a', 'image_urls-2': 'u:face-b' },
    };
    expect(generationFields(faceSwap, option, slots, values)).toEqual({
      option: 'EaselFaceSwap',
      image_urls: ['u:target', 'u:face-a', 'u:face-b'],
      order_indices: ['0', '1'],
      async_mode: 'true',
    });
  });

  it('sends voice for speech and duration for sound effects, without async_mode', () => {
    const speech = spec('text-to-speech');
    const speechValues = { ...defaultFormValues(speech, optionsForTool(ASSET_TOOLS, 'text-to-speech')), prompt: ' Hi ' };
    expect(generationFields(speech, model('Text2Speech'), [], speechValues)).toEqual({
      option: 'Text2Speech',
      prompt: 'Hi',
      voice: 'Aria',
    });
    const sound = spec('text-to-audio');
    const soundValues = { ...defaultFormValues(sound, optionsForTool(ASSET_TOOLS, 'text-to-audio')), prompt: 'rain' };
    expect(generationFields(sound, model('Text2Audio'), [], soundValues)).toEqual({
      option: 'Text2Audio',
      prompt: 'rain',
      duration: '5',
    });
  });
});
