import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { APP_NAME } from '@/app/page-title';
import { JOB_TEXTS } from '@/config/job-texts';
import { MESSAGES, type Notice } from '@/config/messages';
import type { jobsMachine } from '@/machines/jobs/jobs.machine';
import type { EmittedFrom } from 'xstate';
import { isPageHidden } from '@/lib/page-hidden';

type JobFinished = Extract<EmittedFrom<typeof jobsMachine>, { type: 'jobs.finished' }>;

const TOAST_COLORS: Readonly<Record<JobFinished['outcome'], string>> = {
  succeeded: 'green',
  failed: 'red',
  nsfw: 'orange',
  cancelled: 'gray',
  denied: 'red',
};

/** The toast's words for a finished job; `cost` is what a refund gave back (null when none). */
export function finishedJobText(event: JobFinished, refundedCredits: number | null): string {
  switch (event.outcome) {
    case 'succeeded':
      return JOB_TEXTS.finished.succeeded(event.toolTitle);
    case 'failed':
      return JOB_TEXTS.finished.failed(event.toolTitle, event.error);
    case 'nsfw':
      return JOB_TEXTS.finished.nsfw(event.toolTitle, refundedCredits);
    case 'cancelled':
      return JOB_TEXTS.finished.cancelled(event.toolTitle, refundedCredits);
    case 'denied':
      return JOB_TEXTS.finished.denied(event.toolTitle, event.error);
  }
}

/**
 * SPEC §8 failures with their own words: the tool's job failed (on the server, or its request was
 * refused). The toast is a danger one and says exactly this.
 */
const FAILURE_NOTICES: Readonly<Record<string, Notice>> = {
  'replace-background-video': MESSAGES.replaceBackgroundVideoFailed,
};

export interface FinishedJobToast {
  color: string;
  title: string;
  message: string;
}

/** The toast of a finished job: SPEC §8's words for the failures that have them, else Kinora's. */
export function finishedJobToast(event: JobFinished, refundedCredits: number | null): FinishedJobToast {
  const notice = event.outcome === 'failed' ? FAILURE_NOTICES[event.tool] : undefined;
  if (notice) return { color: 'red', title: notice.title, message: notice.message };
  return { color: TOAST_COLORS[event.outcome], title: finishedJobText(event, refundedCredits), message: event.optionLabel };
}


/**
 * Whether the person is looking elsewhere: the tab is hidden, or the window is behind another
 * one. Polling pauses while the tab is hidden, so most jobs end while the page is visible but
 * unfocused; a job whose answer was already on its way still ends while hidden.
 */
const lookingElsewhere = (): boolean => isPageHidden() || !document.hasFocus();

/** A desktop notification, only when the person allowed them and is looking elsewhere. */
function notifyDesktop(title: string, body: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !lookingElsewhere()) return;
  try {
    new Notification(title, { body, tag: 'kinora-job' });
  } catch {
    // Some browsers (Android Chrome) allow notifications only from a service worker: the toast stays.
  }
}

/**
 * What the jobs registry announces, shown: a toast for each finished job, and a desktop
 * notification when the person allowed them and is looking elsewhere. Only rendering: the registry
 * follows the session, the balance and the page through its own actors (jobs.machine.ts).
 */
export function useJobToasts(): void {
  const jobs = JobsActorContext.useActorRef();
  useEffect(() => {
    const subscription = jobs.on('jobs.finished', (event) => {
      const entry = jobs.getSnapshot().context.jobs.find((job) => job.localId === event.localId);
      const refundedCredits = event.refunded ? (entry?.stored.cost ?? 0) : null;
      const toast = finishedJobToast(event, refundedCredits);
      notifications.show({ color: toast.color, title: toast.title, message: toast.message });
      notifyDesktop(`${toast.title} · ${APP_NAME}`, toast.message);
    });
    return () => subscription.unsubscribe();
  }, [jobs]);
}
