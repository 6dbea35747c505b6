import { describe, expect, it } from 'vitest';
import { CREDIT_TIER_IDS, CREDIT_TIERS, findCreditTier } from '@/config/credit-tiers';

describe('credit tiers', () => {
  it('has the seven tiers in order with their labels', () => {
    expect(CREDIT_TIERS.map((tier) => tier.id)).toEqual([...CREDIT_TIER_IDS]);
    expect(CREDIT_TIERS.map((tier) => tier.label)).toEqual([
      'Tier 1',
      'Tier 2',
      'Tier 3',
      'Tier 4',
      'Tier 5',
      'Tier 6',
      'Open Tier',
    ]);
  });

  it.each([
    ['tier-1', { Video: 20, Image: 4, Audio: 4, Text: 0 }],
    ['tier-2', { Video: 40, Image: 8, Audio: 8, Text: 0 }],
    ['tier-3', { Video: 80, Image: 16, Audio: 16, Text: 0 }],
    ['tier-4', { Video: 160, Image: 32, Audio: 32, Text: 0 }],
    ['tier-5', { Video: 240, Image: 48, Audio: 48, Text: 0 }],
    ['tier-6', { Video: 320, Image: 64, Audio: 64, Text: 0 }],
    ['open-tier', { Video: 400, Image: 80, Audio: 80, Text: 0, LORA: 240 }],
  ] as const)('%s costs %o', (id, credits) => {
    expect(findCreditTier(id).credits).toEqual(credits);
  });

  it('lists the models of each tier as SPEC names them', () => {
    const tier1 = findCreditTier('tier-1');
    expect(tier1.image_tools).toHaveLength(16);
    expect(tier1.image_tools).toEqual(expect.arrayContaining(['Seedream', 'Remove Text', 'Magic Face Swap', 'ByteDanceRestyle']));
    expect(tier1.video_tools).toEqual(['PicoMotion', 'Crop Video', 'Sound Effect']);
    expect(tier1.audio_tools).toEqual(['Text To Audio']);

    const tier2 = findCreditTier('tier-2');
    expect(tier2.image_tools).toEqual(expect.arrayContaining(['Kling TryOn', 'Fashn TryOn', 'Kontext TryOn', 'Easel Face Swap']));
    expect(tier2.video_tools).toHaveLength(19);
    expect(tier2.video_tools).toEqual(expect.arrayContaining(['Pika Effects', 'Kling Effects', 'Vidu Effects', 'Pixverse Effects']));
    expect(tier2.audio_tools).toEqual(['Text To Speech', 'Text To Music']);

    expect(findCreditTier('tier-3').image_tools).toEqual(['Segmind Face Swap', 'OpenAI Image 1', 'Image Elements']);
    expect(findCreditTier('tier-3').video_tools).toEqual(['AutoT3', 'Luma Ray2', 'VeoFast without Audio', 'Seedance', 'Wan Effects']);
    expect(findCreditTier('tier-4').video_tools).toEqual(['Kling2', 'VeoFast with Audio', 'Veo without Audio']);
    expect(findCreditTier('tier-5').video_tools).toEqual(['Sora Pro', 'Luma Modify Video']);
    expect(findCreditTier('tier-6').video_tools).toEqual(['Veo with Audio']);
    expect(findCreditTier('open-tier').lora_tools).toEqual(['FluxFinetune', 'FluxProFinetune', 'FluxKontextFinetune']);
  });

  it('prices LoRA in the open tier only', () => {
    expect(CREDIT_TIERS.filter((tier) => tier.credits.LORA !== undefined).map((tier) => tier.id)).toEqual(['open-tier']);
  });
});
