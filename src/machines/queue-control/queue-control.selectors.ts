import type { SnapshotFrom } from 'xstate';
import type { Media, queueControlMachine } from '@/machines/queue-control/queue-control.machine';

type QueueControlSnapshot = SnapshotFrom<typeof queueControlMachine>;

export const selectQueueMedia = (snapshot: QueueControlSnapshot): Media => snapshot.context.media;
export const selectQueueError = (snapshot: QueueControlSnapshot): string | null => snapshot.context.error;
export const selectQueueBusy = (snapshot: QueueControlSnapshot): boolean => !snapshot.matches('idle');
/** Which of Hold, Resume, Run next and Edit the job takes now: each button is shown exactly then (compare with shallowEqual). */
export const selectQueueActions = (snapshot: QueueControlSnapshot): { hold: boolean; resume: boolean; runNext: boolean; edit: boolean } => ({
  hold: snapshot.can({ type: 'queue.hold' }),
  resume: snapshot.can({ type: 'queue.resume' }),
  runNext: snapshot.can({ type: 'queue.runNext' }),
  edit: snapshot.can({ type: 'queue.edit', edit: {} }),
});
