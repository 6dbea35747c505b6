import { PARALLAX_MOTION_TYPE } from '@/lib/pose-preset';
import type { PosePreset } from '@/lib/pose-preset';

/** SPEC §3: a media of version "2" or "3" has its result paths under base_url. */
export const usesBaseUrl = (version: string | number | null | undefined): boolean =>
  String(version ?? '') === '2' || String(version ?? '') === '3';

const trimTrailingSlash = (value: string): string => value.replace(/\/+$/, '');

/** The folder's name: the motion type, or the camera path when the motion type is Parallax. */
export function presetFolderName(preset: Pick<PosePreset, 'motion_type' | 'camera_path'>): string {
  if (preset.motion_type === PARALLAX_MOTION_TYPE && preset.camera_path) return preset.camera_path;
  return preset.motion_type;
}

/**
 * SPEC §3 result folders of one preset: {base}/batch/{bullet_version}/{name}{n}, n = 1…quantity,
 * with n left out when the quantity is 1.
 */
export function batchFolders(
  base: string,
  bulletVersion: string | number,
  preset: Pick<PosePreset, 'motion_type' | 'camera_path' | 'quantity'>,
): string[] {
  const root = `${trimTrailingSlash(base)}/batch/${bulletVersion}/${presetFolderName(preset)}`;
  const count = Math.max(1, Math.floor(preset.quantity));
  if (count === 1) return [root];
  return Array.from({ length: count }, (_, index) => `${root}${index + 1}`);
}

/** {folder}/thumbnail/thumbnail.jpg */
export const thumbnailPath = (folder: string): string => `${trimTrailingSlash(folder)}/thumbnail/thumbnail.jpg`;

/** {folder}/{name}.mp4, or {folder}/{name}_logo.mp4 for the variant that carries the logo (guest videos). */
export const videoPath = (folder: string, name: string, withLogo = false): string =>
  `${trimTrailingSlash(folder)}/${name}${withLogo ? '_logo' : ''}.mp4`;

/** The video's path with gif in place of mp4. */
export const gifPath = (folder: string, name: string, withLogo = false): string =>
  `${trimTrailingSlash(folder)}/${name}${withLogo ? '_logo' : ''}.gif`;
