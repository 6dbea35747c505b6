import { describe, expect, it } from 'vitest';
import { ASSET_TOOLS, optionsForTool } from '@/config/asset-tools';
import { generationToolBySlug, type GenerationToolSpec } from '@/config/generation-tools';
import { EFFECT_FAMILIES, VIDEO_EFFECT_FAMILIES } from '@/config/effects';
import { MESSAGES } from '@/config/messages';
import {
  aspectRatioShown,
  defaultFormValues,
  formModels,
  generationFields,
  generationFormSchema,
  pictureSlots,
  promptNeed,
  shownChoices,
  submitEndpoint,
  UPLOAD_PAGES,
  voiceShown,
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

  it('refuses a cleared duration or one out of the tool’s bounds with the bounds, and takes a whole number within them', () => {
    const sound = spec('text-to-audio');
    const base = { ...defaultFormValues(sound, optionsForTool(ASSET_TOOLS, 'text-to-audio')), prompt: 'rain' };
    const schema = generationFormSchema(sound, model('Text2Audio'), []);
    const messages = (duration: number | '') => schema.safeParse({ ...base, duration }).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    for (const refused of ['', 0, 31, 2.5] as const) expect(messages(refused)).toEqual([['duration', 'Enter a whole number of seconds from 1 to 30']]);
    for (const taken of [1, 12, 30]) expect(schema.safeParse({ ...base, duration: taken }).success).toBe(true);
  });
});

describe('the video tool form rules (SPEC §5, §9)', () => {
  const videoEffects = spec('video-effects');
  const labels = (slots: ReturnType<typeof pictureSlots>) => slots.map((slot) => [slot.label, slot.required, slot.media]);

  // Every effect of every family: the end frame is asked for, and required, exactly when the effect needs one.
  const effectCases = EFFECT_FAMILIES.flatMap((family) =>
    VIDEO_EFFECT_FAMILIES[family].effects.map((effect) => [family, effect.value, effect.end_frame === 1] as const),
  );
  it.each(effectCases)('%s %s: end frame shown and required = %s', (family, effect, needsEndFrame) => {
    const slots = pictureSlots(videoEffects, model(family), {}, { effect });
    expect(slots[0]).toMatchObject({ label: 'First frame', required: true, media: 'image' });
    const endFrame = slots.find((slot) => slot.label === 'End frame');
    if (needsEndFrame) {
      expect(endFrame).toMatchObject({ required: true, note: 'This effect needs an end frame.' });
    } else {
      expect(endFrame).toBeUndefined();
    }
  });

  it('needs an end frame for exactly Kling hug, heart_gesture, kiss and Vidu smooth_shift, ai_outfit', () => {
    const needing = effectCases.filter(([, , needs]) => needs).map(([family, effect]) => `${family}.${effect}`);
    expect(needing).toEqual([
      'KlingEffects.hug',
      'KlingEffects.heart_gesture',
      'KlingEffects.kiss',
      'ViduEffects.smooth_shift',
      'ViduEffects.ai_outfit',
    ]);
    for (const family of ['PikaEffects', 'WanEffects', 'PixverseEffects'] as const) {
      expect(VIDEO_EFFECT_FAMILIES[family].effects.every((effect) => pictureSlots(videoEffects, model(family), {}, { effect: effect.value }).length === 1)).toBe(true);
    }
  });

  it('offers the model\'s effects, the first by default, and falls back to it when the model changes', () => {
    expect(shownChoices(videoEffects, model('KlingEffects')).map((choice) => [choice.spec.field, choice.value, choice.options.length])).toEqual([
      ['effect', 'hug', 6],
    ]);
    // A Kling effect chosen, then Pika: Pika's first effect, and no end frame.
    expect(shownChoices(videoEffects, model('PikaEffects'), { effect: 'heart_gesture' })[0]?.value).toBe('cake-ify');
    expect(pictureSlots(videoEffects, model('PikaEffects'), {}, { effect: 'heart_gesture' })).toHaveLength(1);
    // The default effect of Kling (hug) needs the end frame at once.
    expect(pictureSlots(videoEffects, model('KlingEffects')).map((slot) => slot.label)).toEqual(['First frame', 'End frame']);
  });

  it('refuses a Kling hug without its end frame, and sends effect and both frames with it', () => {
    const kling = model('KlingEffects');
    const values = {
      ...defaultFormValues(videoEffects, optionsForTool(ASSET_TOOLS, 'video-effects')),
      option: 'KlingEffects',
      choices: { effect: 'kiss' },
      pictures: { image_url: 'u:first' },
    };
    const slots = pictureSlots(videoEffects, kling, {}, values.choices);
    const refused = generationFormSchema(videoEffects, kling, slots).safeParse(values);
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['pictures.ref_image_url', 'Add the end frame picture'],
    ]);
    const complete = { ...values, pictures: { image_url: 'u:first', ref_image_url: 'u:end' } };
    expect(generationFormSchema(videoEffects, kling, slots).safeParse(complete).success).toBe(true);
    expect(generationFields(videoEffects, kling, slots, complete)).toEqual({
      option: 'KlingEffects',
      effect: 'kiss',
      image_url: 'u:first',
      ref_image_url: 'u:end',
    });
  });

  const editVideo = spec('edit-video');
  it.each<[string, string, (string | boolean)[][], string, boolean, string[]]>([
    ['CropToAspectRatio', 'video/crop-to-aspect-ratio', [['Video', true, 'video']], 'hidden', true, []],
    ['EnhanceVideo', 'video/enhance', [['Video', true, 'video']], 'hidden', false, ['enhance_mode=DeepClean']],
    ['SoundEffect', 'video/sound-effect', [['Video', true, 'video']], 'required', false, []],
    ['LumaReframeVideo', 'video/reframe', [['Video', true, 'video']], 'required', true, []],
    ['AttachAudio', 'video/audio', [['Video', true, 'video'], ['Audio', true, 'audio']], 'hidden', false, ['mode=MatchVideo']],
  ])('Edit Video %s: call %s, inputs, prompt, aspect ratio, choices', (operation, endpoint, inputs, prompt, ratio, choices) => {
    const option = model(operation);
    expect(submitEndpoint(editVideo, option)).toBe(endpoint);
    expect(labels(pictureSlots(editVideo, option))).toEqual(inputs);
    expect(promptNeed(editVideo, option)).toBe(prompt);
    expect(aspectRatioShown(editVideo, option)).toBe(ratio);
    expect(shownChoices(editVideo, option).map((choice) => `${choice.spec.field}=${choice.value}`)).toEqual(choices);
  });

  it('sends only what the operation takes (no aspect ratio for Enhance, no upscale for Crop)', () => {
    const base = {
      ...defaultFormValues(editVideo, optionsForTool(ASSET_TOOLS, 'edit-video')),
      aspect_ratio: '9:16',
      prompt: 'ignored',
      pictures: { video_url: 'u:video', audio_url: 'u:audio' },
      choices: { enhance_mode: '4X&DeepClean', mode: 'Strict' },
    };
    const fieldsFor = (operation: string) => {
      const option = model(operation);
      return generationFields(editVideo, option, pictureSlots(editVideo, option), { ...base, option: operation });
    };
    expect(fieldsFor('CropToAspectRatio')).toEqual({ option: 'CropToAspectRatio', aspect_ratio: '9:16', video_url: 'u:video' });
    expect(fieldsFor('EnhanceVideo')).toEqual({ option: 'EnhanceVideo', enhance_mode: '4X&DeepClean', video_url: 'u:video' });
    expect(fieldsFor('AttachAudio')).toEqual({ option: 'AttachAudio', mode: 'Strict', video_url: 'u:video', audio_url: 'u:audio' });
    expect(fieldsFor('SoundEffect')).toEqual({ option: 'SoundEffect', prompt: 'ignored', video_url: 'u:video' });
  });

  it('lip sync: a face picture or a face video, and the text with a voice unless an audio is given', () => {
    const lipSync = spec('lip-sync');
    const option = model('LipSync');
    const slots = pictureSlots(lipSync, option);
    expect(labels(slots)).toEqual([
      ['Face picture', false, 'image'],
      ['Face video', false, 'video'],
      ['Speech audio (optional)', false, 'audio'],
    ]);
    const empty = { ...defaultFormValues(lipSync, optionsForTool(ASSET_TOOLS, 'lip-sync')) };
    expect(generationFormSchema(lipSync, option, slots).safeParse(empty).error?.issues.map((issue) => issue.message)).toEqual([
      'Enter a prompt',
      'Add a face picture or a face video.',
    ]);
    const spoken = { ...empty, prompt: 'Hello', pictures: { video_url: 'u:face' } };
    expect(generationFormSchema(lipSync, option, slots).safeParse(spoken).success).toBe(true);
    expect(generationFields(lipSync, option, slots, spoken)).toEqual({ option: 'LipSync', prompt: 'Hello', voice: 'Aria', video_url: 'u:face' });
    expect(promptNeed(lipSync, option, true)).toBe('hidden');
    expect(voiceShown(lipSync, true)).toBe(false);
    const withAudio = { ...empty, prompt: 'not sent', pictures: { image_url: 'u:face', audio_url: 'u:speech' } };
    expect(generationFormSchema(lipSync, option, slots).safeParse(withAudio).success).toBe(true);
    expect(generationFields(lipSync, option, slots, withAudio)).toEqual({ option: 'LipSync', image_url: 'u:face', audio_url: 'u:speech' });
  });

  it('replace background (video): the video, then a background picture or video', () => {
    const replace = spec('replace-background-video');
    const option = model('ReplaceBackgroundVideo');
    const slots = pictureSlots(replace, option);
    const values = { ...defaultFormValues(replace, optionsForTool(ASSET_TOOLS, 'replace-background-video')), pictures: { video_url: 'u:v' } };
    expect(generationFormSchema(replace, option, slots).safeParse(values).error?.issues.map((issue) => issue.message)).toEqual([
      'Add a background picture or a background video.',
    ]);
    expect(generationFormSchema(replace, option, slots).safeParse({ ...values, pictures: { video_url: 'u:v', bg_video_url: 'u:bg' } }).success).toBe(true);
    expect(generationFormSchema(replace, option, slots).safeParse({ ...values, pictures: {} }).error?.issues.map((issue) => issue.message)).toEqual([
      'Add a video',
      'Add a background picture or a background video.',
    ]);
  });

  it('restyle video asks for the video and the style, the reference picture optional', () => {
    const modify = spec('modify-video');
    const option = model('LumaModify');
    expect(labels(pictureSlots(modify, option))).toEqual([
      ['Video', true, 'video'],
      ['Style reference (optional)', false, 'image'],
    ]);
    expect(promptNeed(modify, option)).toBe('required');
  });

  it('links each input to the upload page of its kind', () => {
    expect(UPLOAD_PAGES).toEqual({ image: '/ai-image/upload-image', video: '/ai-video/upload-video', audio: '/ai-audio/upload-audio' });
  });
});

describe('trained models in the model list', () => {
  const trained = [
    { value: 'finetune:f1', label: 'My style', required_credits: 8, baseModel: 'FluxFinetuned', finetuneId: 'f1' },
    { value: 'finetune:f2', label: 'My edits', required_credits: 8, baseModel: 'FluxKontextFinetuned', finetuneId: 'f2' },
  ];

  it('follows the tool\'s models; only those whose base model the tool offers', () => {
    const models = formModels(optionsForTool(ASSET_TOOLS, 'text-to-image'), trained);
    expect(models.at(-1)).toMatchObject({ value: 'finetune:f1', label: 'My style', required_credits: 8, finetuneId: 'f1' });
    expect(models.at(-1)?.model.value).toBe('FluxFinetuned');
    expect(models.some((entry) => entry.value === 'finetune:f2')).toBe(false);
  });

  it('is sent as option = its base model plus finetune_id', () => {
    const textToImage = spec('text-to-image');
    const [entry] = formModels(optionsForTool(ASSET_TOOLS, 'text-to-image'), trained).filter((candidate) => candidate.finetuneId);
    const values = { ...defaultFormValues(textToImage, []), option: 'finetune:f1', prompt: 'a cat', aspect_ratio: '1:1' };
    expect(generationFields(textToImage, entry?.model, [], values, entry?.finetuneId ?? null)).toEqual({
      option: 'FluxFinetuned',
      finetune_id: 'f1',
      prompt: 'a cat',
      aspect_ratio: '1:1',
      async_mode: 'true',
    });
  });
});
