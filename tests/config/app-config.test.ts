import { describe, expect, it } from 'vitest';
import { defaultAppConfiguration } from '@/config/app-config';
import { ASSET_TOOLS, optionsForTool } from '@/config/asset-tools';
import { CREDIT_TIERS } from '@/config/credit-tiers';
import { MODEL_COSTS } from '@/config/model-costs';
import { MOTION_MODELS } from '@/config/motion-models';
import { VOICES } from '@/config/voices';
import { appConfigurationSchema } from '@/services/schemas/app-config';

const assetTool = (value: string) => {
  const found = ASSET_TOOLS.find((candidate) => candidate.value === value);
  if (!found) throw new Error(`no asset tool ${value}`);
  return found;
};
const toolValues = (tool: Parameters<typeof optionsForTool>[1]) =>
  optionsForTool(ASSET_TOOLS, tool).map((option) => option.value);

describe('asset tools', () => {
  it('prices every option from MODEL_COSTS', () => {
    for (const option of ASSET_TOOLS) {
      expect(option.required_credits, option.value).toBe(MODEL_COSTS[option.value as keyof typeof MODEL_COSTS]);
    }
    expect(assetTool('ImageElements').required_credits).toBe(16);
    expect(assetTool('LumaModify').required_credits).toBe(240);
  });

  it('has unique values', () => {
    expect(new Set(ASSET_TOOLS.map((option) => option.value)).size).toBe(ASSET_TOOLS.length);
  });

  it('offers the expected models per tool', () => {
    expect(toolValues('text-to-image')).toEqual(expect.arrayContaining(['Seedream', 'Flux1.1Pro', 'FluxKontextPro', 'NanoBanana', 'OpenAI-Image-1']));
    expect(toolValues('reimagine')).toEqual(['Remake']);
    expect(toolValues('try-on')).toEqual(['KlingTryOn', 'FashnTryOn', 'KontextTryOn']);
    expect(toolValues('face-swap')).toEqual(['MagicFaceSwap', 'EaselFaceSwap', 'SegmindFaceSwap']);
    expect(toolValues('restyle')).toEqual(['ByteDanceRestyle', 'RestyleBackground']);
    expect(toolValues('image-elements')).toEqual(['ImageElements']);
    expect(toolValues('text-to-speech')).toEqual(['Text2Speech']);
    expect(toolValues('text-to-audio')).toEqual(['Text2Audio']);
    expect(toolValues('text-to-music')).toEqual(['Lyria2']);
    expect(toolValues('edit-video')).toEqual(['CropToAspectRatio', 'EnhanceVideo', 'SoundEffect', 'LumaReframeVideo', 'AttachAudio']);
    expect(toolValues('video-effects')).toEqual(['PikaEffects', 'WanEffects', 'KlingEffects', 'ViduEffects', 'PixverseEffects']);
    expect(toolValues('lip-sync')).toEqual(['LipSync', 'AvatarLipSync']);
    expect(toolValues('replace-background-video')).toEqual(['ReplaceBackgroundVideo']);
    expect(toolValues('modify-video')).toEqual(['LumaModify']);
    expect(toolValues('finetune')).toEqual(['FluxFinetune', 'FluxProFinetune', 'FluxKontextFinetune']);
  });

  it('gives the fine-tunes generate_type LORA at 240 credits', () => {
    for (const value of ['FluxFinetune', 'FluxProFinetune', 'FluxKontextFinetune']) {
      expect(assetTool(value)).toMatchObject({ generate_type: 'LORA', required_credits: 240 });
    }
  });

  it('carries the effects and voices', () => {
    expect(assetTool('ViduEffects').available_effects).toHaveLength(39);
    expect(assetTool('KlingEffects').available_effects?.find((effect) => effect.value === 'kiss')?.end_frame).toBe(1);
    expect(assetTool('WanEffects')).toMatchObject({ required_credits: 80, text_prompt: 0, first_frame: 1, end_frame: 0 });
    expect(assetTool('Text2Speech').available_voices).toHaveLength(VOICES.length);
    expect(assetTool('LipSync').available_voices).toHaveLength(21);
  });
});

describe('default app configuration', () => {
  it('is built from the constants', () => {
    expect(defaultAppConfiguration.tier_information).toEqual(CREDIT_TIERS);
    expect(defaultAppConfiguration.asset_tools).toEqual(ASSET_TOOLS);
    expect(defaultAppConfiguration.media_tools).toEqual(MOTION_MODELS);
    expect(defaultAppConfiguration.camera_movements).toHaveLength(17);
  });

  it('parses with appConfigurationSchema unchanged', () => {
    expect(appConfigurationSchema.parse(defaultAppConfiguration)).toEqual(defaultAppConfiguration);
  });
});

describe('appConfigurationSchema', () => {
  it('falls back to the defaults for a missing part', () => {
    const parsed = appConfigurationSchema.parse({ camera_movements: [] });
    expect(parsed.camera_movements).toEqual([]);
    expect(parsed.tier_information).toEqual(defaultAppConfiguration.tier_information);
    expect(parsed.media_tools).toEqual(defaultAppConfiguration.media_tools);
  });

  it('defaults a missing credit to 0', () => {
    const parsed = appConfigurationSchema.parse({
      asset_tools: [{ value: 'New', label: 'New', available_tools: ['text-to-image'], generate_type: 'Image' }],
      media_tools: [{ value: 'NewMotion', label: 'New Motion' }],
      tier_information: [{ id: 'tier-1', label: 'Tier 1', credits: {} }],
    });
    expect(parsed.asset_tools[0]).toMatchObject({ required_credits: 0, active: 1 });
    expect(parsed.media_tools[0]?.required_credits).toBe(0);
    expect(parsed.tier_information[0]?.credits).toEqual({ Video: 0, Image: 0, Audio: 0, Text: 0 });
  });

  it('keeps a tool slug this build does not know, and the rest of the configuration with it', () => {
    const payload = {
      asset_tools: [
        { value: 'Future', label: 'Future', available_tools: ['text-to-image', 'text-to-hologram'], generate_type: 'Image' },
      ],
      camera_movements: [{ label: 'Server only', value: 'ServerOnly' }],
    };
    const result = appConfigurationSchema.safeParse(payload);
    expect(result.success).toBe(true);
    expect(result.data?.asset_tools[0]?.available_tools).toEqual(['text-to-image', 'text-to-hologram']);
    expect(result.data?.camera_movements).toEqual([{ label: 'Server only', value: 'ServerOnly', prompt: '' }]);
    // The known slug still finds the model; the unknown one matches no page.
    expect(optionsForTool(result.data?.asset_tools ?? [], 'text-to-image').map((option) => option.value)).toEqual(['Future']);
  });

  it('still rejects a structurally wrong available_tools', () => {
    const tool = { value: 'X', label: 'X', generate_type: 'Image' };
    expect(appConfigurationSchema.safeParse({ asset_tools: [{ ...tool, available_tools: 'text-to-image' }] }).success).toBe(false);
    expect(appConfigurationSchema.safeParse({ asset_tools: [{ ...tool, available_tools: [42] }] }).success).toBe(false);
    expect(appConfigurationSchema.safeParse({ asset_tools: [{ ...tool, available_tools: [null] }] }).success).toBe(false);
  });

  it('rejects a bad payload', () => {
    expect(appConfigurationSchema.safeParse({ asset_tools: [{ value: 'X', label: 'X', generate_type: 'Hologram' }] }).success).toBe(false);
    expect(appConfigurationSchema.safeParse({ media_tools: [{ value: 'X', label: 'X', active: 2 }] }).success).toBe(false);
    expect(appConfigurationSchema.safeParse({ tier_information: [{ id: 'tier-9', label: 'x', credits: {} }] }).success).toBe(false);
  });

  it('hands out a fresh copy of the defaults each time', () => {
    const first = appConfigurationSchema.parse({});
    first.camera_movements.length = 0;
    expect(appConfigurationSchema.parse({}).camera_movements).toHaveLength(17);
  });
});
