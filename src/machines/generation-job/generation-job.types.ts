import type { CreditCheckUser } from '@/lib/affordability';
import type { PaidRequestParentEvent } from '@/machines/paid-request/paid-request.machine';
import type { MultipartFields } from '@/services/http';
import type { Media } from '@/services/schemas/media';
import type { QueueRequest, QueueRequestEvent } from '@/machines/queue-control/queue-call';

// The generation job's public types, apart from its states (generation-job.machine.ts) and its
// implementations (generation-job.setup.ts), so each file reads as one thing.

/** How a job ended. `denied`: the credit check refused it before anything was sent. */
export type JobOutcome = 'succeeded' | 'failed' | 'nsfw' | 'cancelled' | 'denied';

/** What the jobs registry starts a job with. */
export interface GenerationJobInput {
  /** The registry's id for the job (and the actor's id), known before the server answers. */
  localId: string;
  /** Tool slug, e.g. `text-to-image`. */
  tool: string;
  toolTitle: string;
  /** The model value sent as `option`, and its label. */
  option: string;
  optionLabel: string;
  /** SPEC §7 call, e.g. `image/text-2-image`. */
  endpoint: string;
  /** Credits the model costs (SPEC §9), for the credit check and the panel. */
  cost: number;
  /** The multipart fields to send; null for a resumed job that was already answered. */
  fields: MultipartFields | null;
  assetId: string | null;
  /** One per user intent; every retry of the submit sends the same key. */
  idempotencyKey: string;
  /** Epoch ms when the person asked for it. */
  createdAt: number;
  /** SPEC §6 credit check inputs. */
  user: CreditCheckUser | null;
  credit: number | null;
  /** Resume: the server's media id of a job already submitted → starts polling, no submit. */
  mediaId?: string | null;
  /**
   * Kinora's addition: a request already sent once before a reload whose answer never came. It is
   * sent again with the same key and fields (the server replays the first answer), without a
   * second credit check: the check passed when it was first sent, and the balance may not be
   * loaded yet.
   */
  resubmit?: boolean;
  /** The page is hidden now (no polling until it is shown). */
  hidden?: boolean;
}

/** The input as given (its optional flags settled), plus what the job learns as it runs. */
export interface GenerationJobContext extends Omit<GenerationJobInput, 'mediaId' | 'resubmit' | 'hidden'> {
  resubmit: boolean;
  /** Epoch ms when a final state was reached. */
  finishedAt: number | null;
  mediaId: string | null;
  /** The server's last status (SPEC §4), null before the first answer. */
  status: string | null;
  /** 0…100. */
  progress: number;
  /** The full media once fetched (the result's files and signed URLs are in its items). */
  media: Media | null;
  error: string | null;
  /** Credits given back (failed, nsfw, cancelled after being charged). */
  refunded: boolean;
  /** Polls answered so far: the exponent of the poll back-off. */
  pollAttempt: number;
  /**
   * Consecutive failed attempts at reaching the server after the submit (polls, the result, a
   * cancel): the exponent of the retry back-off. The submit's own are its paid-request child's.
   */
  retryAttempt: number;
  hidden: boolean;
  /** `updated_at` of the last answer applied; an older answer is stale and ignored. */
  lastUpdatedAt: string | null;
  /** Cancel was asked for while the submit had no answer yet: cancelled as soon as it has one. */
  cancelRequested: boolean;
  outcome: JobOutcome | null;
  /** Issue 21 item 2: its owner holds it (it waits until resumed). */
  held: boolean;
  /** Issue 21 item 2: while it waits, its place among its owner's waiting jobs (1 = next). */
  queuePosition: number | null;
  /** The hold, resume, run next or edit being sent (controlling). */
  queueRequest: QueueRequest | null;
  /** Why the last of those failed, in the spec's style. */
  queueError: string | null;
}

export type GenerationJobEvent =
  | { type: 'job.cancel' }
  | { type: 'job.visibility'; hidden: boolean }
  | { type: 'job.online' }
  /** Issue 21 item 2: hold, resume, run next or edit the job while it waits (its owner's). */
  | QueueRequestEvent<'job'>
  /** From the submit's paid-request child: a retry starts (reconnecting) or ends. */
  | PaidRequestParentEvent;

/** What a job tells the registry (its parent); the same events are emitted for `actor.on`. */
export type GenerationJobParentEvent =
  | { type: 'job.submitted'; localId: string; mediaId: string }
  | {
      type: 'job.settled';
      localId: string;
      outcome: JobOutcome;
      media: Media | null;
      error: string | null;
      refunded: boolean;
    };

export type GenerationJobTag = 'reconnecting';

/** The job's request, as its paid-request child hands it to the submit (with the key). */
export interface SubmitRequest {
  endpoint: string;
  fields: MultipartFields;
  assetId: string | null;
}
