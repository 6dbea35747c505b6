import { ASSET_TOOLS, type ModelOption } from './asset-tools';
import { CAMERA_MOTIONS, type CameraMotion } from './camera-motions';
import { CREDIT_TIERS, type CreditTier } from './credit-tiers';
import { MOTION_MODELS, type VideoMotionModel } from './motion-models';

/**
 * What `GET frontend-configurations` answers (SPEC §3 "App configuration"). The app falls back to
 * `defaultAppConfiguration` when the fetch fails, so each part has built-in defaults.
 */
export interface AppConfiguration {
  tier_information: CreditTier[];
  asset_tools: ModelOption[];
  /** The video motion models. */
  media_tools: VideoMotionModel[];
  camera_movements: CameraMotion[];
}

// Copies, so a consumer that mutates its configuration never changes the constants.
export const defaultAppConfiguration: AppConfiguration = structuredClone({
  tier_information: [...CREDIT_TIERS],
  asset_tools: [...ASSET_TOOLS],
  media_tools: [...MOTION_MODELS],
  camera_movements: [...CAMERA_MOTIONS],
});
