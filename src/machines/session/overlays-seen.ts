import { STORAGE_KEYS } from '@/config/limits';
import { readStored, writeStored } from '@/services/storage';

export type OnceOverlay = 'guestWelcome' | 'verifyEmailLater';

/** What this person has already seen in this sign-in (nothing for another person's record). */
export const overlaysSeen = (userId: string): { userId: string; guestWelcome: boolean; verifyEmailLater: boolean } => {
  const stored = readStored(STORAGE_KEYS.overlaysSeen);
  return stored?.userId === userId ? stored : { userId, guestWelcome: false, verifyEmailLater: false };
};

/** Remembers, for this sign-in, that the person has seen `overlay` (issue 17: once per sign-in). */
export const rememberOverlaySeen = (userId: string | undefined, overlay: OnceOverlay): void => {
  if (userId) writeStored(STORAGE_KEYS.overlaysSeen, { ...overlaysSeen(userId), [overlay]: true });
};
