import { loadEnv } from '@/config/env';
import { DEVELOPER_GROUP } from '@/config/limits';
import type { SessionSnapshot } from '@/machines/session/session.selectors';

/**
 * Who may open the QA inspector (issue 8): people in the Developer group, or anyone when the app
 * runs on the local stack (`VITE_LOCAL_MODE`). Small on purpose: the header and the jobs panel,
 * which are on the first page, use it.
 */
export const selectIsDeveloper = (snapshot: SessionSnapshot): boolean =>
  snapshot.context.currentUser?.attributes.user_groups?.includes(DEVELOPER_GROUP) ?? false;

let localMode: boolean | undefined;

export function isLocalMode(): boolean {
  if (localMode === undefined) {
    try {
      localMode = loadEnv().localMode;
    } catch {
      localMode = false;
    }
  }
  return localMode;
}

export const canInspect = (isDeveloper: boolean, local: boolean = isLocalMode()): boolean => isDeveloper || local;
