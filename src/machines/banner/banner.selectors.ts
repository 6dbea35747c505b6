import type { SnapshotFrom } from 'xstate';
import type { BannerKind, bannerMachine } from '@/machines/banner/banner.machine';

type BannerSnapshot = SnapshotFrom<typeof bannerMachine>;

export interface VisibleBanner {
  kind: BannerKind;
  message: string;
}

/** The notice to show, or null while the banner is hidden. */
export const selectVisibleBanner = (snapshot: BannerSnapshot): VisibleBanner | null =>
  snapshot.matches({ notice: 'visible' }) ? { kind: snapshot.context.kind, message: snapshot.context.message } : null;
