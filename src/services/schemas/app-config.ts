import { z } from './zod-mini';
// Relative imports: the local server loads this file under tsx and imports it by path.
import { defaultAppConfiguration, type AppConfiguration } from '../../config/app-config';
import { CREDIT_TIER_IDS } from '../../config/credit-tiers';
import { GENERATE_TYPES } from '../../config/tools';

/** The API sends 0/1 flags; anything else is a bad payload. */
const flag = z.union([z.literal(0), z.literal(1)]);
/** SPEC §3: a credit on a tool or cost object defaults to 0. */
const credit = z._default(z.number().check(z.nonnegative()), 0);

const optionSchema = z.object({ value: z.string(), label: z.string() });

export const videoEffectSchema = z.object({
  label: z.string(),
  value: z.string(),
  end_frame: z.optional(flag),
});

export const creditTierSchema = z.object({
  id: z.enum(CREDIT_TIER_IDS),
  label: z.string(),
  credits: z.object({
    Video: credit,
    Image: credit,
    Audio: credit,
    Text: credit,
    LORA: z.optional(z.number().check(z.nonnegative())),
  }),
  image_tools: z._default(z.array(z.string()), []),
  video_tools: z._default(z.array(z.string()), []),
  audio_tools: z._default(z.array(z.string()), []),
  text_tools: z._default(z.array(z.string()), []),
  lora_tools: z._default(z.array(z.string()), []),
});

export const modelOptionSchema = z.object({
  value: z.string(),
  label: z.string(),
  required_credits: credit,
  // Any slug (SPEC §3 lists them with "e.g."): one unknown slug must not discard the whole configuration.
  available_tools: z._default(z.array(z.string()), []),
  generate_type: z.enum(GENERATE_TYPES),
  active: z._default(flag, 1),
  text_prompt: z.optional(flag),
  first_frame: z.optional(flag),
  end_frame: z.optional(flag),
  available_effects: z.optional(z.array(videoEffectSchema)),
  available_voices: z.optional(z.array(optionSchema)),
});

export const videoMotionModelSchema = z.object({
  value: z.string(),
  label: z.string(),
  text_prompt: z._default(flag, 1),
  first_frame: z._default(flag, 1),
  end_frame: z._default(flag, 0),
  motion_amount: z._default(flag, 0),
  required_credits: credit,
  active: z._default(flag, 1),
});

export const cameraMotionSchema = z.object({
  label: z.string(),
  value: z.string(),
  prompt: z._default(z.string(), ''),
});

export const appConfigurationSchema = z.object({
  tier_information: z._default(z.array(creditTierSchema), () => structuredClone(defaultAppConfiguration.tier_information)),
  asset_tools: z._default(z.array(modelOptionSchema), () => structuredClone(defaultAppConfiguration.asset_tools)),
  media_tools: z._default(z.array(videoMotionModelSchema), () => structuredClone(defaultAppConfiguration.media_tools)),
  camera_movements: z._default(z.array(cameraMotionSchema), () => structuredClone(defaultAppConfiguration.camera_movements)),
});

// Compile-time proof that the schema and the hand-written type describe the same object.
type Parsed = z.output<typeof appConfigurationSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<Parsed, AppConfiguration> = true;
void schemaMatchesType;
