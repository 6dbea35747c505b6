/**
 * Kinora's texts for the queue a person controls (issue 21 item 2): the jobs panel's and the
 * History page's Hold, Resume, Run next and Edit, a waiting job's place, and the server's refusals
 * (the API answers `details` with them word for word). SPEC gives none of them.
 */

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st. */
export function ordinal(count: number): string {
  const tens = count % 100;
  if (tens >= 11 && tens <= 13) return `${count}th`;
  const suffix = { 1: 'st', 2: 'nd', 3: 'rd' }[count % 10] ?? 'th';
  return `${count}${suffix}`;
}

export const QUEUE_TEXTS = {
  hold: 'Hold',
  resume: 'Resume',
  runNext: 'Run next',
  edit: 'Edit',
  holdLabel: (tool: string): string => `Hold ${tool}`,
  resumeLabel: (tool: string): string => `Resume ${tool}`,
  runNextLabel: (tool: string): string => `Run ${tool} next`,
  editLabel: (tool: string): string => `Edit ${tool}`,
  /** A waiting job's place among the person's own waiting jobs. */
  position: (position: number): string => `${ordinal(position)} in your queue`,
  held: 'Held: it starts once you resume it',
  /** The phase word of a held job (the jobs panel's badge, the History status). */
  heldPhase: 'Held',
  /** A control call that failed: what was asked, then the server's message. */
  failed: {
    hold: 'The job could not be held.',
    resume: 'The job could not be resumed.',
    runNext: 'The job could not be moved up.',
    edit: 'The job could not be changed.',
  },
  editForm: {
    title: (tool: string): string => `Edit ${tool} before it runs`,
    prompt: 'Prompt',
    model: 'Model',
    save: 'Save changes',
    cancel: 'Keep as it was',
    price: (cost: number): string => `New price: ${credits(cost)}`,
    difference: (current: number, next: number): string =>
      next > current
        ? `${credits(next - current)} more will be debited when you save.`
        : next < current
          ? `${credits(current - next)} will be refunded when you save.`
          : 'The price stays the same.',
    promptRequired: 'Enter a prompt',
  },
  /** The ledger row of an edit that made a waiting job cheaper. */
  editRefundReason: (jobId: string): string => `Refund: job ${jobId} was edited to cost less`,
  /** The server's refusals (409 / 400), the same words on both sides. */
  details: {
    alreadyStarted: 'This job has already started: only a job still waiting in the queue can be changed.',
    notEditable: 'Only a generation job can be edited before it runs.',
    trainedModelKept: 'A job made with a trained model keeps its model.',
  },
} as const;
