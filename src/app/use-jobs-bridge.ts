import { notifications } from '@mantine/notifications';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { SessionActorContext } from '@/components/session/session-context';
import { APP_NAME } from '@/app/page-title';
import { JOB_TEXTS } from '@/config/job-texts';
import { MESSAGES, type Notice } from '@/config/messages';
import { selectOptionalCreditBalance } from '@/machines/session/credits.selectors';
import { selectCreditsRef, selectCurrentUser } from '@/machines/session/session.selectors';
import type { jobsMachine } from '@/machines/jobs/jobs.machine';
import type { EmittedFrom } from 'xstate';

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

const pageHidden = (): boolean => document.visibilityState === 'hidden';

/**
 * Whether the person is looking elsewhere: the tab is hidden, or the window is behind another
 * one. Polling pauses while the tab is hidden, so most jobs end while the page is visible but
 * unfocused; a job whose answer was already on its way still ends while hidden.
 */
const lookingElsewhere = (): boolean => pageHidden() || !document.hasFocus();

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
 * Connects the jobs registry to the rest of the app: who is signed in and their balance go in;
 * page visibility and coming back online are forwarded (polling pauses while hidden); what the
 * registry announces comes out as toasts, desktop notifications and a credits refresh.
 */
export function useJobsBridge(): void {
  const jobs = JobsActorContext.useActorRef();
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const balance = useSelector(creditsRef, selectOptionalCreditBalance);
  const creditsRefLatest = useRef(creditsRef);
  useEffect(() => {
    creditsRefLatest.current = creditsRef;
  }, [creditsRef]);

  useEffect(() => {
    jobs.send({ type: 'jobs.userChanged', userId: user?.userId ?? null, user });
  }, [jobs, user]);

  useEffect(() => {
    jobs.send({ type: 'jobs.creditChanged', credit: balance });
  }, [jobs, balance]);

  useEffect(() => {
    const onVisibility = () => jobs.send({ type: 'jobs.visibility', hidden: pageHidden() });
    const onOnline = () => jobs.send({ type: 'jobs.online' });
    onVisibility();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('online', onOnline);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('online', onOnline);
    };
  }, [jobs]);

  useEffect(() => {
    const subscriptions = [
      jobs.on('jobs.finished', (event) => {
        const entry = jobs.getSnapshot().context.jobs.find((job) => job.localId === event.localId);
        const refundedCredits = event.refunded ? (entry?.stored.cost ?? 0) : null;
        const toast = finishedJobToast(event, refundedCredits);
        notifications.show({ color: toast.color, title: toast.title, message: toast.message });
        notifyDesktop(`${toast.title} · ${APP_NAME}`, toast.message);
      }),
      jobs.on('jobs.creditsChanged', () => creditsRefLatest.current?.send({ type: 'credits.refresh' })),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [jobs]);
}
