import { describe, expect, it } from 'vitest';
import { DEFAULT_TRY_ON_MODEL, resultLabel, resultLabelKind } from '@/lib/result-labels';
import type { LabelledMedia, ResultLabelInput, ResultLabelKind } from '@/lib/result-labels';

describe('resultLabel (SPEC §3 "{run}.{index}.{option}")', () => {
  it.each<[string, ResultLabelInput, string]>([
    ['parallax: the camera path label', { run: 1, index: 2, kind: 'parallax', args: { camera_path: 'HorizontalArc' } }, '1.2.Horizontal'],
    ['parallax: VerticalArc → Vertical', { run: 3, index: 1, kind: 'parallax', args: { camera_path: 'VerticalArc' } }, '3.1.Vertical'],
    ['parallax: a label equal to its value', { run: 1, index: 1, kind: 'parallax', args: { camera_path: 'StepIn' } }, '1.1.StepIn'],
    ['parallax: an unknown path as given', { run: 1, index: 1, kind: 'parallax', args: { camera_path: 'Spiral' } }, '1.1.Spiral'],
    ['try-on video: the model', { run: 1, index: 1, kind: 'tryOnVideo', args: { model: 'FashnTryOn' } }, '1.1.FashnTryOn'],
    ['try-on video: the option is not the model', { run: 1, index: 1, kind: 'tryOnVideo', args: { option: 'TryOnVideo' } }, `1.1.${DEFAULT_TRY_ON_MODEL}`],
    ['parallax: an inherited property name is not a path label', { run: 1, index: 1, kind: 'parallax', args: { camera_path: 'toString' } }, '1.1.toString'],
    ['parallax: __proto__ as given', { run: 1, index: 1, kind: 'parallax', args: { camera_path: 'constructor' } }, '1.1.constructor'],
    ['try-on video: default KlingTryOn', { run: 2, index: 1, kind: 'tryOnVideo', args: {} }, `2.1.${DEFAULT_TRY_ON_MODEL}`],
    ['video: option.effect', { run: 1, index: 1, kind: 'video', args: { option: 'PikaEffects', effect: 'melt', aspect_ratio: '16:9' } }, '1.1.PikaEffects.melt'],
    ['video: no effect → aspect ratio', { run: 1, index: 3, kind: 'video', args: { option: 'KlingAI', aspect_ratio: '9:16', voice: 'Aria' } }, '1.3.9:16'],
    ['video: no effect, no ratio → voice', { run: 1, index: 1, kind: 'video', args: { option: 'LipSync', voice: 'Roger' } }, '1.1.Roger'],
    ['video: only an effect → not option.effect', { run: 1, index: 1, kind: 'video', args: { effect: 'melt' } }, '1.1.'],
    ['video: option alone as a last resort', { run: 1, index: 1, kind: 'video', args: { option: 'Wan' } }, '1.1.Wan'],
    ['audio: the option', { run: 4, index: 1, kind: 'audio', args: { option: 'Text2Speech', voice: 'Aria' } }, '4.1.Text2Speech'],
    ['audio: Audio_{voice} without an option', { run: 1, index: 1, kind: 'audio', args: { voice: 'Aria' } }, '1.1.Audio_Aria'],
    ['audio: an empty option counts as none', { run: 1, index: 2, kind: 'audio', args: { option: '', voice: 'Sarah' } }, '1.2.Audio_Sarah'],
    ['image: the model', { run: 2, index: 4, kind: 'image', args: { option: 'Seedream', aspect_ratio: '1:1' } }, '2.4.Seedream'],
    ['image: the aspect ratio without a model', { run: 1, index: 1, kind: 'image', args: { aspect_ratio: '4:3' } }, '1.1.4:3'],
  ])('%s', (_, input, expected) => {
    expect(resultLabel(input)).toBe(expected);
  });
});

describe('resultLabelKind: which SPEC §3 rule labels a media\'s results', () => {
  it.each<[string, LabelledMedia, ResultLabelKind]>([
    ['a parallax creation', { kind: 'video', tool: 'parallax-motion', creationType: 'parallax-motion' }, 'parallax'],
    ['a parallax batch clip (tool batch-clip)', { kind: 'video', tool: 'batch-clip', creationType: 'parallax-motion' }, 'parallax'],
    ['a try-on video', { kind: 'video', tool: 'try-on-video', creationType: 'try-on' }, 'tryOnVideo'],
    ['a try-on video without its creation type', { kind: 'video', tool: 'try-on-video' }, 'tryOnVideo'],
    ['an AI motion video', { kind: 'video', tool: 'ai-motion', creationType: 'ai-motion' }, 'video'],
    ['a video effect', { kind: 'video', tool: 'video-effects' }, 'video'],
    ['the image try-on is an image', { kind: 'image', tool: 'try-on' }, 'image'],
    ['speech', { kind: 'audio', tool: 'text-to-speech' }, 'audio'],
  ])('%s', (_, media, expected) => {
    expect(resultLabelKind(media)).toBe(expected);
  });

  it('labels video tool results by option.effect, else the aspect ratio, else the voice', () => {
    const label = (args: ResultLabelInput['args']) => resultLabel({ run: 1, index: 1, kind: resultLabelKind({ kind: 'video', tool: 'edit-video' }), args });
    expect(label({ option: 'KlingEffects', effect: 'hug' })).toBe('1.1.KlingEffects.hug');
    expect(label({ option: 'CropToAspectRatio', aspect_ratio: '9:16' })).toBe('1.1.9:16');
    expect(label({ option: 'LipSync', voice: 'Aria' })).toBe('1.1.Aria');
  });
});
