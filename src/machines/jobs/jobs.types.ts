import type { ActorRefFrom } from 'xstate';
import type { CreditCheckUser } from '@/lib/affordability';
import type { MultipartFields } from '@/services/http';
import type { Media } from '@/services/schemas/media';
import type { StoredJob } from '@/services/schemas/stored-jobs';
import type { SessionRef } from '@/machines/account-link/account-link';
import type { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import type { GenerationJobParentEvent, JobOutcome } from '@/machines/generation-job/generation-job.types';

// The jobs registry's public types, apart from its states (jobs.machine.ts), its implementations
// (jobs.setup.ts) and its stored list (jobs-storage.ts).

export type GenerationJobRef = ActorRefFrom<typeof generationJobMachine>;

/** What a tool page asks the registry to run. */
export interface JobRequest {
  tool: string;
  toolTitle: string;
  option: string;
  optionLabel: string;
  endpoint: string;
  cost: number;
  fields: MultipartFields;
  assetId?: string | null;
}

/**
 * One job of the list. `ref` is its actor while this page runs it; null for a job restored
 * finished from storage (or marked failed at restore). `stored` is what local storage keeps.
 */
export interface JobEntry {
  localId: string;
  ref: GenerationJobRef | null;
  stored: StoredJob;
}

export interface JobsContext {
  /** Newest first. */
  jobs: JobEntry[];
  userId: string | null;
  user: CreditCheckUser | null;
  credit: number | null;
  hidden: boolean;
  /**
   * Jobs this tab removed (dismissed, trimmed, a replayed twin): writing the list merges in what
   * other tabs stored, except these. Bounded (FORGOTTEN_LIMIT).
   */
  forgotten: string[];
  /** The session the registry follows (who is signed in, their balance); null links nothing. */
  session: SessionRef | null;
  /** The person's live jobs are asked of the server (jobs of other devices; see jobs-remote.ts). */
  remoteSync: boolean;
}

export interface JobsInput {
  /** The page is hidden at start (document.visibilityState). */
  hidden?: boolean;
  /** The app's session actor (see the `account` actor of the registry). */
  session?: SessionRef | null;
  /**
   * Ask the server for the person's live jobs (another device's) on sign-in, when the page is
   * shown again and every SERVER_JOBS_SYNC.intervalMs while one is listed. Default: when linked to
   * a session (a registry on its own, as in a test, asks nothing unless told).
   */
  remoteSync?: boolean;
}

export type JobsUiEvent =
  /** `guest`: the shared guest account (SPEC §6), whose jobs on the server are other people's too. */
  | { type: 'jobs.userChanged'; userId: string | null; user: CreditCheckUser | null; guest?: boolean }
  | { type: 'jobs.creditChanged'; credit: number | null }
  | { type: 'jobs.submit'; request: JobRequest }
  | { type: 'jobs.cancel'; localId: string }
  | { type: 'jobs.dismiss'; localId: string }
  | { type: 'jobs.visibility'; hidden: boolean }
  | { type: 'jobs.online' }
  /** A job the server started for this page (a re-run): polled by its media id like any other. */
  | { type: 'jobs.track'; media: Media };

/** Another tab changed `kinora_jobs` (the storage watcher). */
export type JobsStorageEvent = { type: 'jobs.storageChanged' };

/** What the registry's own actors (account link, page watcher) send it: the same events as a UI would. */
export type JobsLinkEvent = Extract<JobsUiEvent, { type: 'jobs.userChanged' | 'jobs.creditChanged' | 'jobs.visibility' | 'jobs.online' }>;

export type JobsEvent = JobsUiEvent | JobsStorageEvent | GenerationJobParentEvent;

/** What the app listens for (`actor.on`): toasts and notifications; a credits refresh (also sent to the credits actor). */
export type JobsEmitted =
  | {
      type: 'jobs.finished';
      localId: string;
      tool: string;
      toolTitle: string;
      optionLabel: string;
      outcome: JobOutcome;
      refunded: boolean;
      error: string | null;
      mediaId: string | null;
    }
  | { type: 'jobs.creditsChanged' };

