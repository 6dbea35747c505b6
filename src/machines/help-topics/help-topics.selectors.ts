import type { SnapshotFrom } from 'xstate';
import type { helpTopicsMachine } from '@/machines/help-topics/help-topics.machine';

type HelpTopicsSnapshot = SnapshotFrom<typeof helpTopicsMachine>;

export const selectHelpIsOpen = (snapshot: HelpTopicsSnapshot): boolean => snapshot.matches('open');
export const selectHelpTopicIndex = (snapshot: HelpTopicsSnapshot): number => snapshot.context.topicIndex;
export const selectHasNextTopic = (snapshot: HelpTopicsSnapshot): boolean => snapshot.can({ type: 'help.next' });
export const selectHasPreviousTopic = (snapshot: HelpTopicsSnapshot): boolean => snapshot.can({ type: 'help.previous' });
