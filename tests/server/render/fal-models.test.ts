import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { FAL_MODELS, FAL_TEXT_CALL, FAL_VISION_CALL, falCallFor, falCoverage } from '../../../server/src/render/fal/models.ts';
import { FAL_MISSING_EFFECTS } from '../../../server/src/render/fal/models-video.ts';
import type { FalCall, FalInputFile, FalRequest } from '../../../server/src/render/fal/types.ts';
import { falModelsTable, kinoraModels, motionCallKeys, README_PATH, tableInReadme } from '../../../scripts/fal-models-table.ts';
import { ASSET_TOOLS, type ModelOption } from '../../../src/config/asset-tools.ts';
import { VIDEO_EFFECT_FAMILIES, type EffectFamily } from '../../../src/config/effects.ts';
import { MODEL_COSTS } from '../../../src/config/model-costs.ts';
import { MOTION_MODELS } from '../../../src/config/motion-models.ts';
import { PARALLAX_OPTION } from '../../../src/config/video-creation.ts';

const SPEC_MODELS = [...Object.keys(MODEL_COSTS), ...MOTION_MODELS.map((model) => model.value)];
const PROMPT = 'A red fox leaping over a frozen stream';
const LORA_URL = 'https://v3.fal.media/files/trained/lora.safetensors';
const ZIP = 'data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==';

const file = (field: string, name: string, contentType = 'image/png'): FalInputFile => ({
  field,
  url: `https://kinora.example/signed/${name}?sig=abc`,
  contentType,
});
const picture = (field: string, name: string) => file(field, `${name}.png`);
const video = (field: string, name: string) => file(field, `${name}.mp4`, 'video/mp4');
const audio = (field: string, name: string) => file(field, `${name}.mp3`, 'audio/mpeg');

/** The files a Kinora page sends for this call key (SPEC §7 fields, generation-tools.ts). */
function filesFor(key: string, model: string): FalInputFile[] {
  switch (key) {
    case 'image-to-image':
    case 'edit-image':
    case 'reimagine':
    case 'restyle':
      return [picture('image_url', 'source')];
    case 'scene-image':
    case 'image-elements':
    case 'video-elements':
      return [picture('image_urls', 'element-1'), picture('image_urls', 'element-2')];
    case 'try-on':
      return model === 'TryOnVideo'
        ? [picture('image_urls', 'person'), picture('image_urls', 'clothes')]
        : [picture('human_image_url', 'person'), picture('clothes_image_url', 'clothes')];
    case 'face-swap':
      return [picture('image_urls', 'target'), picture('image_urls', 'face')];
    case 'replace-bg':
      return [picture('image_url', 'subject'), picture('image2_url', 'background')];
    case 'edit-video':
    case 'modify-video':
      return [video('video_url', 'source'), audio('audio_url', 'track')];
    case 'replace-background-video':
      return [video('video_url', 'source'), picture('bg_image_url', 'background')];
    case 'video-effects':
      return [picture('image_url', 'first'), picture('ref_image_url', 'second')];
    case 'lip-sync':
      return model === 'AvatarLipSync' ? [picture('image_url', 'face'), audio('audio_url', 'speech')] : [video('video_url', 'face'), audio('audio_url', 'speech')];
    case 'image':
      return [picture('image_urls', 'first-frame')];
    case 'transition':
      return [picture('image_urls', 'first-frame'), picture('image_urls', 'end-frame')];
    case 'composer':
      return [picture('image_urls', 'one'), picture('image_urls', 'two'), picture('image_urls', 'three')];
    case 'character-animate':
      return [picture('image_urls', 'character'), video('video_url', 'driving')];
    case 'extend-video':
      return [video('video_url', 'earlier')];
    default:
      return [];
  }
}

/** An effect of the family fal can make (the first one). */
function effectFor(model: string): string | undefined {
  const family = VIDEO_EFFECT_FAMILIES[model as EffectFamily];
  if (!family) return undefined;
  const missing = FAL_MISSING_EFFECTS[model] ?? [];
  // A two-person effect where there is one, so the second picture is used too.
  const usable = family.effects.filter((effect) => !missing.includes(effect.value));
  return (usable.find((effect) => effect.end_frame === 1) ?? usable[0])?.value;
}

function sampleRequest(model: string, key: string, overrides: Partial<FalRequest> = {}): FalRequest {
  const args: Record<string, unknown> = {
    motion_type: 'PanRight',
    motion_length: 5,
    prompt_strength: 60,
    frame_selection: 'Last',
    voice: 'Roger',
    enhance_mode: '2X&DeepClean',
    lora_url: LORA_URL,
  };
  const effect = effectFor(model);
  if (effect) args.effect = effect;
  if (key === 'finetune') Object.assign(args, { images_data_url: ZIP, trigger_word: 'KNRSTYLE' });
  return {
    tool: key,
    model,
    prompt: PROMPT,
    args,
    files: filesFor(key, model),
    seed: 1234,
    aspectRatio: '16:9',
    durationSeconds: 5,
    ...overrides,
  };
}

/** Every string and `undefined` inside a value, with where it sits. */
function leaves(value: unknown, at = 'input'): { at: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, `${at}[${index}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => leaves(item, `${at}.${key}`));
  return [{ at, value }];
}

const falModels = Object.entries(FAL_MODELS).flatMap(([model, entry]) => (entry.fal ? [{ model, calls: entry.calls }] : []));
const everyCall = falModels.flatMap(({ model, calls }) => Object.entries(calls).map(([key, call]) => ({ model, key, call })));
const optionOf = (model: string): ModelOption | undefined => ASSET_TOOLS.find((option) => option.value === model);

/** Whether the model's page sends a prompt with this call key (SPEC §3 text_prompt flag). */
function takesPrompt(model: string, key: string): boolean {
  if (key === 'finetune' || key === 'character-animate' || key === 'try-on') return false;
  const option = optionOf(model);
  if (option) return option.text_prompt === 1;
  return MOTION_MODELS.find((motion) => motion.value === model)?.text_prompt === 1;
}

describe('fal model map: coverage', () => {
  it('has an entry for every model SPEC §9 sells, and nothing else (Parallax stays local)', () => {
    expect(Object.keys(FAL_MODELS).sort()).toEqual([...new Set(SPEC_MODELS)].sort());
    expect(FAL_MODELS[PARALLAX_OPTION]).toBeUndefined();
  });

  it('gives every model fal cannot run a reason', () => {
    for (const [model, entry] of Object.entries(FAL_MODELS)) {
      if (!entry.fal) expect(entry.reason.length, model).toBeGreaterThan(15);
    }
  });

  it('has a call for every tool a fal model is offered on', () => {
    for (const { model, calls } of falModels) {
      const option = optionOf(model);
      if (!option) continue;
      for (const tool of option.available_tools) expect(calls[tool], `${model} on ${tool}`).toBeDefined();
    }
  });

  it('runs every motion model from a picture and from a text, a transition when it has an end frame, and Try On Video on its page', () => {
    for (const motion of MOTION_MODELS) {
      const entry = FAL_MODELS[motion.value];
      if (!entry?.fal) continue;
      if (motion.value === 'TryOnVideo') {
        expect(Object.keys(entry.calls)).toEqual(['try-on']);
        continue;
      }
      expect(entry.calls.image, motion.value).toBeDefined();
      expect(entry.calls.text, motion.value).toBeDefined();
      if (motion.end_frame === 1) expect(entry.calls.transition, motion.value).toBeDefined();
      else expect(entry.calls.transition, motion.value).toBeUndefined();
    }
  });

  it('uses only call keys some Kinora page can ask for', () => {
    const asked = new Map(kinoraModels().map(({ model, keys }) => [model, new Set(keys)]));
    for (const { model, key } of everyCall) expect(asked.get(model)?.has(key), `${model}: ${key}`).toBe(true);
  });

  it('keeps the story defaults and the trainers the provider calls on fal', () => {
    for (const [model, key] of [
      ['Seedream', 'scene-image'],
      ['PicoMotion', 'image'],
      ['Text2Speech', 'text-to-speech'],
      ['Lyria2', 'text-to-music'],
      ['FluxFinetune', 'finetune'],
      ['FluxKontextFinetune', 'finetune'],
      ['FluxFinetuned', 'text-to-image'],
      ['FluxKontextFinetuned', 'image-to-image'],
    ] as const) {
      expect('endpoint' in falCallFor(model, key), `${model} on ${key}`).toBe(true);
    }
    expect(falCallFor('FluxFinetune', 'finetune')).toMatchObject({ output: 'lora' });
  });

  it('answers why when there is no call', () => {
    expect(falCallFor('RunwayML', 'image')).toEqual({ reason: "Runway's models are not on fal." });
    expect(falCallFor('KlingAI', 'composer')).toEqual({ reason: 'fal has no call for KlingAI on composer.' });
    expect(falCallFor('Parallax', 'image')).toEqual({ reason: 'Parallax is not a model Kinora sells.' });
  });

  it('counts the coverage from the map', () => {
    const coverage = falCoverage();
    expect(coverage.total).toBe(Object.keys(FAL_MODELS).length);
    expect(coverage.mapped).toBe(falModels.length);
    expect(coverage.inactive.map((item) => item.model).sort()).toEqual(
      Object.entries(FAL_MODELS)
        .filter(([, entry]) => !entry.fal)
        .map(([model]) => model)
        .sort(),
    );
    expect(coverage.mapped).toBeGreaterThan(coverage.total / 2);
  });
});

describe('fal model map: inputs', () => {
  it.each(everyCall.map(({ model, key, call }) => [`${model} on ${key}`, model, key, call] as const))(
    '%s: builds fal input from the request alone',
    (_name, model, key, call: FalCall) => {
      const request = sampleRequest(model, key);
      const input = call.input(request);
      const fileUrls = new Set(request.files.map((item) => item.url));
      const strings = leaves(input);
      for (const { at, value } of strings) {
        expect(value, at).not.toBeUndefined();
        if (typeof value !== 'string') continue;
        expect(value.startsWith('/') || value.startsWith('file:'), `${at} is a local path: ${value}`).toBe(false);
        if (/^(https?|data):/.test(value)) {
          const allowed = fileUrls.has(value) || value === LORA_URL || value === ZIP;
          expect(allowed, `${at}: ${value} is not one of the request's files`).toBe(true);
        }
      }
      const values = strings.map((item) => item.value);
      // A text-only model draws a story scene from its prompt alone: its element pictures are not sent.
      const textOnlyScene = key === 'scene-image' && optionOf(model)?.first_frame === 0;
      if (!textOnlyScene && request.files.some((item) => item.contentType.startsWith('image/') || item.contentType.startsWith('video/'))) {
        expect(values.some((value) => typeof value === 'string' && fileUrls.has(value)), 'an input file reaches fal').toBe(true);
      }
      if (takesPrompt(model, key)) {
        expect(values.some((value) => typeof value === 'string' && value.includes(PROMPT)), 'the prompt reaches fal').toBe(true);
      }
      if (key === 'finetune') expect(values).toContain(ZIP);
    },
  );

  it('refuses a call whose required picture is missing, with a readable reason', () => {
    const call = falCallFor('FluxKontextPro', 'image-to-image') as FalCall;
    expect(() => call.input(sampleRequest('FluxKontextPro', 'image-to-image', { files: [] }))).toThrow(/needs the picture to edit/);
  });

  it('hands trained weights to the generate calls as loras', () => {
    const call = falCallFor('FluxFinetuned', 'text-to-image') as FalCall;
    expect(call.input(sampleRequest('FluxFinetuned', 'text-to-image'))).toMatchObject({ loras: [{ path: LORA_URL, scale: 1 }] });
    const plain = call.input(sampleRequest('FluxFinetuned', 'text-to-image', { args: {} }));
    expect(plain).not.toHaveProperty('loras');
  });

  it('maps aspect ratios and seconds to the nearest value the endpoint allows', () => {
    const flux = falCallFor('Flux1.1Pro', 'text-to-image') as FalCall;
    expect(flux.input(sampleRequest('Flux1.1Pro', 'text-to-image', { aspectRatio: '3:4' }))).toMatchObject({ image_size: 'portrait_4_3' });
    expect(flux.input(sampleRequest('Flux1.1Pro', 'text-to-image', { aspectRatio: undefined }))).not.toHaveProperty('image_size');

    const veo = falCallFor('Veo', 'text') as FalCall;
    expect(veo.input(sampleRequest('Veo', 'text', { aspectRatio: '4:3', durationSeconds: 10 }))).toMatchObject({ aspect_ratio: '16:9', duration: '8s' });
    expect(veo.input(sampleRequest('Veo', 'text', { aspectRatio: '3:4', durationSeconds: 2 }))).toMatchObject({ aspect_ratio: '9:16', duration: '4s' });

    const kling = falCallFor('KlingAI', 'transition') as FalCall;
    const klingInput = kling.input(sampleRequest('KlingAI', 'transition', { durationSeconds: 9 }));
    expect(klingInput).toMatchObject({ duration: '10', cfg_scale: 0.6, tail_image_url: filesFor('transition', 'KlingAI')[1]?.url });
    expect(klingInput.prompt).toBe(`${PROMPT}. Camera pan right`);
  });

  it('speaks in the voice asked for, and in Aria when the voice is unknown', () => {
    const call = falCallFor('Text2Speech', 'text-to-speech') as FalCall;
    expect(call.input(sampleRequest('Text2Speech', 'text-to-speech'))).toEqual({ text: PROMPT, voice: 'Roger' });
    expect(call.input(sampleRequest('Text2Speech', 'text-to-speech', { args: { voice: 'Nobody' } }))).toMatchObject({ voice: 'Aria' });
  });

  it('refuses to extend a video backwards', () => {
    const call = falCallFor('Veo', 'extend-video') as FalCall;
    const request = sampleRequest('Veo', 'extend-video');
    expect(() => call.input({ ...request, args: { ...request.args, frame_selection: 'First' } })).toThrow(/last frame only/);
  });

  it('asks the text and vision LLMs with the prompt, the system prompt and the first file', () => {
    const text = FAL_TEXT_CALL.input(sampleRequest('text', 'text', { args: { system_prompt: 'Write prompts.' }, files: [] }));
    expect(text).toMatchObject({ prompt: PROMPT, system_prompt: 'Write prompts.' });
    expect(FAL_TEXT_CALL.output).toBe('text');
    const photo = picture('image_url', 'photo');
    expect(FAL_VISION_CALL.input(sampleRequest('vision', 'image-to-prompt', { files: [photo], args: {} }))).toMatchObject({ image_urls: [photo.url] });
    expect(FAL_VISION_CALL.output).toBe('text');
  });
});

/** The enum fal's schema gives an endpoint's input field, read from @fal-ai/client's generated types. */
async function falEnum(endpoint: string, field: string): Promise<string[]> {
  const require = createRequire(import.meta.url);
  const typesPath = require.resolve('@fal-ai/client/endpoints').replace(/\.js$/, '.d.ts');
  const lines = (await readFile(typesPath, 'utf8')).split('\n');
  const mapAt = lines.findIndex((line) => line.startsWith('export type EndpointTypeMap'));
  const entryAt = lines.indexOf(`    "${endpoint}": {`, mapAt);
  let typeName = lines[entryAt + 1]?.match(/input: (\w+);/)?.[1];
  for (let hops = 0; typeName && hops < 5; hops += 1) {
    const declAt = lines.findIndex((line) => line.startsWith(`export type ${typeName} =`));
    const alias = lines[declAt]?.match(/^export type \w+ = (\w+);$/)?.[1];
    if (alias) {
      typeName = alias;
      continue;
    }
    for (let index = declAt; index < lines.length && !/^};?$/.test(lines[index] ?? ''); index += 1) {
      const line = lines[index] ?? '';
      if (line.trimStart().startsWith(`${field}:`) || line.trimStart().startsWith(`${field}?:`)) return [...line.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? '');
    }
    break;
  }
  return [];
}

describe('fal model map: effects', () => {
  const families: [EffectFamily, string, string][] = [
    ['PikaEffects', 'fal-ai/pika/v1.5/pikaffects', 'pikaffect'],
    ['WanEffects', 'fal-ai/wan-effects', 'effect_type'],
    ['KlingEffects', 'fal-ai/kling-video/v1.6/standard/effects', 'effect_scene'],
    ['ViduEffects', 'fal-ai/vidu/template-to-video', 'template'],
    ['PixverseEffects', 'fal-ai/pixverse/v4.5/effects', 'effect'],
  ];

  it.each(families)('%s: every effect fal has becomes a name of its schema; the rest are refused', async (family, endpoint, field) => {
    const allowed = await falEnum(endpoint, field);
    expect(allowed.length, `${endpoint}.${field}`).toBeGreaterThan(5);
    const call = falCallFor(family, 'video-effects') as FalCall;
    expect(call.endpoint).toBe(endpoint);
    const missing = FAL_MISSING_EFFECTS[family] ?? [];
    for (const effect of VIDEO_EFFECT_FAMILIES[family].effects) {
      const request = sampleRequest(family, 'video-effects', { args: { effect: effect.value } });
      if (missing.includes(effect.value)) {
        expect(() => call.input(request), effect.value).toThrow(/has no/);
        continue;
      }
      const name = call.input(request)[field];
      expect(allowed, `${effect.value} → ${String(name)}`).toContain(name);
    }
  });
});

describe('fal model map: docs and README', () => {
  it('links every call to its page on fal.ai', () => {
    for (const { model, key, call } of everyCall) {
      expect(call.docs, `${model} on ${key}`).toBe(`https://fal.ai/models/${call.endpoint}/api`);
    }
    for (const call of [FAL_TEXT_CALL, FAL_VISION_CALL]) expect(call.docs).toMatch(/^https:\/\/fal\.ai\/models\//);
  });

  it('lists the motion keys the video-creation route can ask for', () => {
    expect(motionCallKeys({ value: 'TryOnVideo', end_frame: 1 })).toEqual(['try-on']);
    expect(motionCallKeys({ value: 'Wan', end_frame: 0 })).toEqual(['image', 'text', 'composer', 'character-animate', 'extend-video']);
  });

  it('has the generated table in README.md (node --import tsx scripts/fal-models-table.ts)', async () => {
    const readme = await readFile(README_PATH, 'utf8');
    expect(tableInReadme(readme)).toBe(falModelsTable());
    const { total, mapped } = falCoverage();
    expect(readme).toContain(`${mapped} of ${total} models run on fal.`);
  });
});
