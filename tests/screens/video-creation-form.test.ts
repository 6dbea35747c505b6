import { describe, expect, it } from 'vitest';
import { CAMERA_MOTIONS } from '@/config/camera-motions';
import { TOOL_TEXTS } from '@/config/job-texts';
import { MOTION_MODELS, type VideoMotionModel } from '@/config/motion-models';
import type { MotionMode, VideoCreationType } from '@/config/video-creation';
import { VIDEO_TEXTS } from '@/config/video-texts';
import { parsePosePreset } from '@/lib/pose-preset';
import {
  appendCameraPrompt,
  defaultMotionModel,
  defaultVideoFormValues,
  motionModelOptions,
  parseItemIndex,
  posePresets,
  videoCost,
  videoFormFields,
  videoFormLayout,
  videoFormSchema,
  videoHelpTopic,
  videoPictureSlots,
  type VideoFormContext,
  type VideoFormValues,
} from '@/screens/video/video-creation-form';

const model = (value: string): VideoMotionModel => {
  const found = MOTION_MODELS.find((candidate) => candidate.value === value);
  if (!found) throw new Error(`no motion model ${value}`);
  return found;
};

const values = (type: VideoCreationType, overrides: Partial<VideoFormValues> = {}): VideoFormValues => ({
  ...defaultVideoFormValues(type, motionModelOptions(type, overrides.mode ?? 'image', MOTION_MODELS)),
  ...overrides,
});

const context = (
  type: VideoCreationType,
  mode: MotionMode = 'image',
  option: string | undefined = type === 'parallax-motion' ? undefined : type === 'try-on' ? 'TryOnVideo' : 'Auto',
  overrides: Partial<VideoFormContext> = {},
): VideoFormContext => ({
  type,
  mode,
  model: option ? model(option) : undefined,
  cameraMotions: CAMERA_MOTIONS,
  slots: videoPictureSlots(type, mode),
  ...overrides,
});

/** The schema's messages for these values, by path. */
const problems = (ctx: VideoFormContext, form: VideoFormValues): Record<string, string> => {
  const result = videoFormSchema(ctx).safeParse(form);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('the video creation form rules', () => {
  // SPEC §9 "Motion models": [model, credits, end frame, motion amount, text prompt].
  const SPEC_MOTION_MODELS: [string, number, boolean, boolean, boolean][] = [
    ['Auto', 40, true, true, true],
    ['AutoT3', 80, true, false, true],
    ['KlingAI', 40, true, false, true],
    ['Kling2', 160, false, false, true],
    ['LumaAI', 40, true, false, true],
    ['LumaRay2', 80, false, false, true],
    ['VeoFast', 80, false, false, true],
    ['Veo', 160, false, false, true],
    ['RunwayML', 40, true, false, true],
    ['MinimaxHailuo', 40, false, false, true],
    ['Seedance', 80, false, false, true],
    ['Hunyuan', 40, false, false, true],
    ['Pixverse', 40, false, false, true],
    ['PicoMotion', 20, true, false, true],
    ['StaticMotion', 4, false, false, true],
    ['Wan', 40, false, false, true],
    ['Sora', 40, false, false, true],
    ['SoraPro', 240, false, false, true],
  ];

  it.each(SPEC_MOTION_MODELS)(
    'AI Motion with %s (%i credits): end frame %s, motion amount %s, prompt %s',
    (value, credits, endFrame, motionAmount, textPrompt) => {
      const chosen = model(value);
      // The transition mode (the one with an end frame) offers the model only when it takes one.
      expect(motionModelOptions('ai-motion', 'transition', MOTION_MODELS).some((option) => option.value === value)).toBe(endFrame);
      expect(motionModelOptions('ai-motion', 'image', MOTION_MODELS).some((option) => option.value === value)).toBe(true);
      const layout = videoFormLayout('ai-motion', 'image', chosen);
      expect(layout.motionAmount).toBe(motionAmount);
      expect(layout.prompt).toBe(textPrompt ? 'optional' : 'hidden');
      expect(videoFormLayout('ai-motion', 'text', chosen).prompt).toBe('required');
      expect(videoCost('ai-motion', chosen, { camera_paths: [], quantity: 2 })).toEqual({ videos: 2, perVideo: credits, total: credits * 2 });
    },
  );

  it('asks for the end frame only in transition mode, and the composer for 2 to 6 pictures', () => {
    const labels = (mode: MotionMode, extra: string[] = []) => videoPictureSlots('ai-motion', mode, extra).map((slot) => slot.label);
    expect(labels('image')).toEqual(['First frame']);
    expect(labels('text')).toEqual([]);
    expect(labels('transition')).toEqual(['First frame', 'End frame']);
    expect(labels('composer')).toEqual(['Picture 1', 'Picture 2']);
    expect(labels('composer', ['a', 'b', 'c', 'd', 'e'])).toEqual(['Picture 1', 'Picture 2', 'Picture 3', 'Picture 4', 'Picture 5', 'Picture 6']);
    expect(videoPictureSlots('ai-motion', 'composer', ['a']).map((slot) => [slot.key, slot.required, slot.removable])).toEqual([
      ['composer-1', true, false],
      ['composer-2', true, false],
      ['composer-a', false, true],
    ]);
  });

  it('gives each page its inputs', () => {
    expect(videoPictureSlots('parallax-motion', 'image').map((slot) => slot.label)).toEqual(['Picture']);
    expect(videoPictureSlots('try-on', 'image').map((slot) => slot.label)).toEqual(['Person picture', 'Clothes picture']);
    expect(videoPictureSlots('character-animate', 'image').map((slot) => slot.label)).toEqual(['Character picture']);
    expect(videoPictureSlots('extend-video', 'image')).toEqual([]);

    const parallax = videoFormLayout('parallax-motion', 'image', undefined);
    expect(parallax).toMatchObject({ model: false, prompt: 'hidden', cameraPaths: true, cameraMotion: false, loop: true, modes: false });
    // SPEC §5: Try On Video takes no text prompt; its motion amount flag is on.
    const tryOn = videoFormLayout('try-on', 'image', model('TryOnVideo'));
    expect(tryOn).toMatchObject({ prompt: 'hidden', cameraMotion: false, motionAmount: true, strength: false, modes: false });
    expect(videoFormLayout('character-animate', 'image', model('KlingAI'))).toMatchObject({ drivingVideo: true, prompt: 'optional' });
    expect(videoFormLayout('extend-video', 'image', model('Auto'))).toMatchObject({ frameSelection: true, loop: false, strength: false });
    // The strength slider where a picture and a text both drive the video; the ratio where only the text does.
    expect(videoFormLayout('ai-motion', 'image', model('Auto'))).toMatchObject({ strength: true, aspectRatio: false });
    expect(videoFormLayout('ai-motion', 'text', model('Auto'))).toMatchObject({ strength: false, aspectRatio: true });
  });

  it('offers Try On Video only on its own page, where it is the default', () => {
    expect(motionModelOptions('try-on', 'image', MOTION_MODELS).map((option) => option.value)).toEqual(['TryOnVideo']);
    expect(motionModelOptions('ai-motion', 'image', MOTION_MODELS).map((option) => option.value)).not.toContain('TryOnVideo');
    expect(motionModelOptions('parallax-motion', 'image', MOTION_MODELS)).toEqual([]);
    expect(defaultMotionModel('try-on', motionModelOptions('try-on', 'image', MOTION_MODELS))).toBe('TryOnVideo');
    expect(defaultMotionModel('ai-motion', motionModelOptions('ai-motion', 'image', MOTION_MODELS))).toBe('Auto');
    // A configuration without Auto starts on its first model.
    expect(defaultMotionModel('ai-motion', [model('Kling2'), model('Veo')])).toBe('Kling2');
  });

  it.each([
    ['a red fox', 'Camera pan right', 'a red fox. Camera pan right'],
    ['a red fox.', 'Camera pan right', 'a red fox. Camera pan right'],
    ['  a red fox  ', '', 'a red fox'],
    ['', 'Camera zoom in', 'Camera zoom in'],
    ['', '', ''],
  ])('appends the camera motion prompt: %j + %j → %j', (prompt, motion, expected) => {
    expect(appendCameraPrompt(prompt, motion)).toBe(expected);
  });

  it('builds one parallax preset per selected camera path, in SPEC order, at 20 credits a video', () => {
    const form = values('parallax-motion', { camera_paths: ['Circular', 'HorizontalArc'], quantity: 1, motion_length: 4, loop: true });
    const presets = posePresets(context('parallax-motion'), form);
    expect(presets).toEqual([
      { motion_type: 'Parallax', prompt: '', quantity: 1, motion_amount: 5, motion_length: 4, loop: 1, model: 'Parallax', camera_path: 'HorizontalArc' },
      { motion_type: 'Parallax', prompt: '', quantity: 1, motion_amount: 5, motion_length: 4, loop: 1, model: 'Parallax', camera_path: 'Circular' },
    ]);
    const cost = videoCost('parallax-motion', undefined, form);
    expect(VIDEO_TEXTS.cost(cost.videos, cost.perVideo)).toBe('2 videos × 20 credits = 40 credits');
    expect(videoCost('parallax-motion', undefined, { ...form, quantity: 3 }).total).toBe(120);

    const fields = videoFormFields(context('parallax-motion'), { ...form, pictures: { picture: 'http://x/p.png' } });
    expect(fields).toMatchObject({ creation_type: 'parallax-motion', option: 'Parallax', image_urls: ['http://x/p.png'] });
    expect(fields.motion_mode).toBeUndefined();
    // What the server parses back (src/lib/pose-preset.ts) is what was sent.
    expect(parsePosePreset(fields.pose_preset).map((preset) => preset.camera_path)).toEqual(['HorizontalArc', 'Circular']);
  });

  it('builds the AI Motion preset: the camera motion as motion type, its prompt appended, the model', () => {
    const ctx = context('ai-motion', 'image', 'KlingAI');
    const form = values('ai-motion', {
      option: 'KlingAI',
      prompt: 'waves on a beach',
      camera_motion: 'PanRight',
      motion_amount: 9,
      quantity: 2,
      loop: false,
      pictures: { first: 'http://x/first.png' },
    });
    const fields = videoFormFields(ctx, form);
    expect(JSON.parse(fields.pose_preset as string)).toEqual({
      motion_type: 'PanRight',
      prompt: 'waves on a beach. Camera pan right',
      quantity: 2,
      // Kling AI has no motion amount flag: SPEC's default goes.
      motion_amount: 5,
      motion_length: 5,
      loop: 0,
      model: 'KlingAI',
      camera_path: null,
    });
    expect(fields).toMatchObject({
      creation_type: 'ai-motion',
      option: 'KlingAI',
      motion_mode: 'image',
      image_urls: ['http://x/first.png'],
      prompt_strength: '50',
    });
    expect(fields.aspect_ratio).toBeUndefined();
    // Auto has the flag: the slider's value goes.
    expect(JSON.parse(videoFormFields(context('ai-motion'), { ...form, option: 'Auto' }).pose_preset as string).motion_amount).toBe(9);
    // Without a prompt there is no text to weigh against the picture.
    expect(videoFormFields(ctx, { ...form, prompt: '', camera_motion: 'Auto' }).prompt_strength).toBeUndefined();
  });

  it('sends text mode without pictures and with its aspect ratio', () => {
    const ctx = context('ai-motion', 'text');
    const form = values('ai-motion', { mode: 'text', prompt: 'a city at night', aspect_ratio: '9:16', pictures: { first: 'http://x/stale.png' } });
    const fields = videoFormFields(ctx, form);
    expect(fields.image_urls).toBeUndefined();
    expect(fields).toMatchObject({ motion_mode: 'text', aspect_ratio: '9:16' });
    expect(fields.prompt_strength).toBeUndefined();
  });

  it('sends transition and composer pictures in their order', () => {
    const transition = videoFormFields(
      context('ai-motion', 'transition'),
      values('ai-motion', { mode: 'transition', pictures: { first: 'http://x/a.png', end: 'http://x/b.png' } }),
    );
    expect(transition).toMatchObject({ motion_mode: 'transition', image_urls: ['http://x/a.png', 'http://x/b.png'] });

    const composerContext = context('ai-motion', 'composer', 'Auto', { slots: videoPictureSlots('ai-motion', 'composer', ['z']) });
    const composer = videoFormFields(
      composerContext,
      values('ai-motion', { mode: 'composer', pictures: { 'composer-z': 'http://x/3.png', 'composer-1': 'http://x/1.png', 'composer-2': 'http://x/2.png' } }),
    );
    expect(composer.image_urls).toEqual(['http://x/1.png', 'http://x/2.png', 'http://x/3.png']);
  });

  it('sends try-on without a prompt, character animate with its driving video, extend with its source and frame', () => {
    const tryOn = videoFormFields(
      context('try-on'),
      values('try-on', { prompt: 'ignored', camera_motion: 'ZoomIn', pictures: { person: 'http://x/person.png', clothes: 'http://x/shirt.png' } }),
    );
    expect(tryOn).toMatchObject({ creation_type: 'try-on', option: 'TryOnVideo', image_urls: ['http://x/person.png', 'http://x/shirt.png'] });
    expect(JSON.parse(tryOn.pose_preset as string)).toMatchObject({ prompt: '', motion_type: 'Auto', model: 'TryOnVideo' });

    const character = videoFormFields(
      context('character-animate', 'image', 'KlingAI'),
      values('character-animate', { option: 'KlingAI', video_url: 'http://x/dance.mp4', pictures: { character: 'http://x/hero.png' } }),
    );
    expect(character).toMatchObject({ creation_type: 'character-animate', image_urls: ['http://x/hero.png'], video_url: 'http://x/dance.mp4' });

    const extend = videoFormFields(
      context('extend-video', 'image', 'Auto', { sourceVideoUrl: 'http://x/old.mp4' }),
      values('extend-video', { frame_selection: 'First', camera_motion: 'ZoomOut' }),
    );
    expect(extend).toMatchObject({ creation_type: 'extend-video', option: 'Auto', video_url: 'http://x/old.mp4', frame_selection: 'First' });
    expect(extend.image_urls).toBeUndefined();
    expect(JSON.parse(extend.pose_preset as string)).toMatchObject({ motion_type: 'ZoomOut', prompt: 'Camera zoom out', loop: 0 });
  });

  it('says what is missing', () => {
    expect(problems(context('ai-motion', 'text'), values('ai-motion', { mode: 'text' }))).toEqual({ prompt: TOOL_TEXTS.enterPrompt });
    expect(problems(context('ai-motion', 'transition'), values('ai-motion', { mode: 'transition' }))).toEqual({
      'pictures.first': 'Add the first frame',
      'pictures.end': 'Add the end frame',
    });
    expect(problems(context('parallax-motion'), values('parallax-motion', { camera_paths: [], pictures: { picture: 'u' } }))).toEqual({
      camera_paths: 'Choose at least one camera path.',
    });
    expect(problems(context('character-animate'), values('character-animate', { pictures: { character: 'u' } }))).toEqual({
      video_url: 'Add the driving video',
    });
    expect(problems(context('extend-video'), values('extend-video'))).toEqual({ video_url: VIDEO_TEXTS.sourceMissing });
    expect(problems(context('ai-motion', 'image', 'Auto', { model: undefined }), values('ai-motion', { pictures: { first: 'u' } }))).toEqual({
      option: TOOL_TEXTS.noModel,
    });
    // Three paths × 3 videos = 9, over the 8 a job may make.
    expect(
      problems(
        context('parallax-motion'),
        values('parallax-motion', { camera_paths: ['Cross', 'StepL', 'StepR'], quantity: 3, pictures: { picture: 'u' } }),
      ),
    ).toEqual({ quantity: 'At most 8 videos per job: choose fewer camera paths or fewer videos.' });
    expect(problems(context('ai-motion'), values('ai-motion', { motion_length: 11, pictures: { first: 'u' } }))).toEqual({
      motion_length: 'Choose a number from 2 to 10.',
    });
    expect(problems(context('ai-motion'), values('ai-motion', { pictures: { first: 'u' } }))).toEqual({});
  });

  it.each([
    ['parallax-motion', 'image', 0],
    ['ai-motion', 'image', 1],
    ['ai-motion', 'text', 1],
    ['ai-motion', 'transition', 2],
    ['ai-motion', 'composer', 18],
    ['character-animate', 'image', 20],
    ['try-on', 'image', 15],
    ['extend-video', 'image', 38],
  ] as const)('shows help topic for %s (%s): %i', (type, mode, topic) => {
    expect(videoHelpTopic(type, mode)).toBe(topic);
  });

  it('reads ?item= as a 0-based index, the first item otherwise', () => {
    expect(parseItemIndex('2')).toBe(2);
    expect(parseItemIndex(null)).toBe(0);
    expect(parseItemIndex('-1')).toBe(0);
    expect(parseItemIndex('two')).toBe(0);
  });
});
