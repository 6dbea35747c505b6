import type { SnapshotFrom } from 'xstate';
import type { promptHelperMachine } from '@/machines/prompt-helper/prompt-helper.machine';

export type PromptHelperSnapshot = SnapshotFrom<typeof promptHelperMachine>;

/** True while a request runs (the menu shows a loader and its items are disabled). */
export const selectPromptHelperBusy = (snapshot: PromptHelperSnapshot): boolean => snapshot.matches('requesting');

/** Why the last request failed (shown under the field), or null. */
export const selectPromptHelperError = (snapshot: PromptHelperSnapshot): string | null => snapshot.context.error;
