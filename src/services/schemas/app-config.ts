import { z } from 'zod';
// Relative imports: the local server loads this file under tsx and imports it by path.
import { defaultAppConfiguration, type AppConfiguration } from '../../config/app-config';
import { CREDIT_TIER_IDS } from '../../config/credit-tiers';
import { GENERATE_TYPES } from '../../config/tools';

/** The API sends 0/1 flags; anything else is a bad payload. */
const flag = z.union([z.literal(0), z.literal(1)]);
/** SPEC §3: a credit on a tool or cost object defaults to 0. */
const credit = z.number().nonnegative().default(0);

const optionSchema = z.object({ value: z.string(), label: z.string() });

export const videoEffectSchema = z.object({
  label: z.string(),
  value: z.string(),
  end_frame: flag.optional(),
});

export const creditTierSchema = z.object({
  id: z.enum(CREDIT_TIER_IDS),
  label: z.string(),
  credits: z.object({
    Video: credit,
    Image: credit,
    Audio: credit,
    Text: credit,
    LORA: z.number().nonnegative().optional(),
  }),
  image_tools: z.array(z.string()).default([]),
  video_tools: z.array(z.string()).default([]),
  audio_tools: z.array(z.string()).default([]),
  text_tools: z.array(z.string()).default([]),
  lora_tools: z.array(z.string()).default([]),
});

export const modelOptionSchema = z.object({
  value: z.string(),
  label: z.string(),
  required_credits: credit,
  // Any slug (SPEC §3 lists them with "e.g."): one unknown slug must not discard the whole configuration.
  available_tools: z.array(z.string()).default([]),
  generate_type: z.enum(GENERATE_TYPES),
  active: flag.default(1),
  text_prompt: flag.optional(),
  first_frame: flag.optional(),
  end_frame: flag.optional(),
  available_effects: z.array(videoEffectSchema).optional(),
  available_voices: z.array(optionSchema).optional(),
});

export const videoMotionModelSchema = z.object({
  value: z.string(),
  label: z.string(),
  text_prompt: flag.default(1),
  first_frame: flag.default(1),
  end_frame: flag.default(0),
  motion_amount: flag.default(0),
  required_credits: credit,
  active: flag.default(1),
});

export const cameraMotionSchema = z.object({
  label: z.string(),
  value: z.string(),
  prompt: z.string().default(''),
});

export const appConfigurationSchema = z.object({
  tier_information: z.array(creditTierSchema).default(() => structuredClone(defaultAppConfiguration.tier_information)),
  asset_tools: z.array(modelOptionSchema).default(() => structuredClone(defaultAppConfiguration.asset_tools)),
  media_tools: z.array(videoMotionModelSchema).default(() => structuredClone(defaultAppConfiguration.media_tools)),
  camera_movements: z.array(cameraMotionSchema).default(() => structuredClone(defaultAppConfiguration.camera_movements)),
});

// Compile-time proof that the schema and the hand-written type describe the same object.
type Parsed = z.output<typeof appConfigurationSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<Parsed, AppConfiguration> = true;
void schemaMatchesType;
