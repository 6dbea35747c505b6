import type { SnapshotFrom } from 'xstate';
import { defaultAppConfiguration } from '@/config/app-config';
import type { AppConfiguration } from '@/config/app-config';
import type { appConfigMachine } from '@/machines/app-config/app-config.machine';

export type AppConfigSnapshot = SnapshotFrom<typeof appConfigMachine>;

/**
 * The configuration to render with. Until the first check finishes the built-in defaults stand
 * in, as SPEC §3 gives every part a default.
 */
export const selectAppConfiguration = (snapshot: AppConfigSnapshot): AppConfiguration =>
  snapshot.context.configuration ?? defaultAppConfiguration;

export const selectTierInformation = (snapshot: AppConfigSnapshot) => selectAppConfiguration(snapshot).tier_information;
export const selectAssetTools = (snapshot: AppConfigSnapshot) => selectAppConfiguration(snapshot).asset_tools;
export const selectMediaTools = (snapshot: AppConfigSnapshot) => selectAppConfiguration(snapshot).media_tools;
export const selectCameraMovements = (snapshot: AppConfigSnapshot) => selectAppConfiguration(snapshot).camera_movements;

/** True while the first answer (cache or network) is still pending. */
export const selectIsAppConfigLoading = (snapshot: AppConfigSnapshot): boolean =>
  snapshot.context.configuration === null;

export const selectIsUsingDefaultAppConfig = (snapshot: AppConfigSnapshot): boolean => snapshot.matches('usingDefaults');
