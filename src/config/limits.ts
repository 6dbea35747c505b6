import type { MediaKind } from './enums';

/** Defaults and limits of SPEC §5 and §9 that are not tied to one model. */

export interface UploadRule {
  /** MIME type → accepted file extensions, the shape file pickers take. */
  accept: Readonly<Record<string, readonly string[]>>;
  maxBytes: number;
}

/**
 * Accepted uploads per media kind (SPEC §5). SPEC gives the three size limits without saying
 * which kind each belongs to; it calls image, video, audio in that order plausible.
 */
export const UPLOAD_RULES: Readonly<Record<MediaKind, UploadRule>> = {
  image: {
    accept: {
      'image/jpeg': ['.png', '.jpg', '.svg', '.heif', '.webp', '.tif', '.tiff', '.bmp', '.avif', '.jfif'],
      'image/heic': [],
      'image/psd': ['.psd'],
    },
    maxBytes: 30_000_000,
  },
  video: {
    accept: { 'video/mp4': ['.mp4'] },
    maxBytes: 100_000_000,
  },
  audio: {
    accept: { 'audio/*': ['.mp3', '.wav', '.ogg'] },
    maxBytes: 50_000_000,
  },
};

export const PASSWORD_MIN_LENGTH = 6;

/** Kinora's (issue 21 item 7): a generation job's seed is a whole number from 0 to this (what models at fal take). */
export const SEED_MAX = 2_147_483_646;

/** Local-storage keys, the one place their spelling lives. */
export const STORAGE_KEYS = {
  appConfiguration: 'app_configuration',
  appConfigExpiry: 'app_config_exp',
  couponCode: 'coupon_code',
  redirectUri: 'redirect_uri',
  redirectState: 'redirect_state',
  /** Kinora's: the jobs registry's live and recent jobs per user, so a reload resumes them. */
  jobs: 'kinora_jobs',
  /**
   * Kinora's: the sign-in overlays already seen in this sign-in (issue 17: the guest welcome and
   * Verify Email come once per sign-in, not on every reload); cleared on sign-out.
   */
  overlaysSeen: 'kinora_overlays_seen',
  /**
   * Kinora's: each generation job's path through its machine, kept a week (issue 22 item 1,
   * src/lib/inspection/job-log-keeper.ts), so the inspector can open a finished job after a reload.
   */
  jobLogs: 'kinora_job_logs',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export const APP_CONFIG_CACHE_MS = 3_600_000;
/** After falling back to the built-in configuration, the app tries the fetch again this often. */
export const APP_CONFIG_RETRY_MS = 60_000;

/** Extra attempts after the first failed `GET credits/get`. */
export const CREDITS_FETCH_RETRIES = 2;
/** The wait before each of those extra attempts. */
export const CREDITS_FETCH_RETRY_DELAY_MS = 1000;

export const IDENTITY_CREDENTIALS_REFRESH_MS = 50 * 60 * 1000;
/**
 * While the browser says it is online but the user cannot be loaded for want of a network (the
 * sign-in server is unreachable), the session tries again after this wait, doubling each time…
 */
export const NETWORK_RETRY_BASE_MS = 2000;
/** …up to this wait between attempts. */
export const NETWORK_RETRY_MAX_MS = 60_000;
export const IDENTITY_RETRY_BACKOFF_CAP_MS = 300_000;
/** Identity requests are retried on these statuses, on throttling and on time-outs (SPEC §8). */
export const IDENTITY_RETRY_STATUSES: readonly number[] = [429, 500, 502, 503, 504];

/** Waits before each new attempt at a lazy screen chunk that failed to download. */
export const LAZY_IMPORT_RETRY_DELAYS_MS: readonly number[] = [500, 1500];

/**
 * Toasts (SPEC §2.9 item 6): top-right, 5000 ms, the timer paused while hovered. `'all'` (Mantine's
 * default, passed explicitly) pauses every toast while any one is hovered.
 */
export const TOAST = { autoCloseMs: 5000, position: 'top-right', pauseResetOnHover: 'all' } as const;

/** The shell's header height (its Jobs button and account menu live there). */
export const HEADER_HEIGHT_PX = 60;
/** Offline for this long raises the top banner (issue 17); a shorter drop-out passes silently. */
export const OFFLINE_BANNER_AFTER_MS = 60_000;
/**
 * Toasts sit this far from the top of the viewport: below the header plus a gap, so a toast never
 * covers the header's Jobs button or account menu (issue 17).
 */
export const TOAST_TOP_OFFSET_PX = HEADER_HEIGHT_PX + 12;

export const HELP_POPOVER = {
  topicCount: 41,
  widthPx: 500,
  viewportMarginPx: 15,
  heightWithVideoPx: 400,
  heightWithoutVideoPx: 200,
} as const;

/** Below `mobile` px wide the layout is mobile, below `tablet` it is tablet, otherwise desktop. */
export const BREAKPOINTS = { mobile: 768, tablet: 1024 } as const;

export const SENTRY_RATES = {
  tracesSampleRate: 1.0,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const;

/**
 * Polling a job's processing-status (Kinora's): full-jitter back-off, each wait drawn from
 * 0…min(cap, base × 2^attempt); polled at once when a hidden page is shown again.
 */
export const JOB_POLL = { baseMs: 2000, capMs: 30_000 } as const;
/**
 * Polls that start at the same moment (a page shown again with its jobs) go as one request of at
 * most this many ids (Kinora's GET media/processing-status?ids=…); the server takes no more.
 */
export const STATUS_BATCH_MAX_IDS = 50;
/** Finished jobs the jobs panel keeps listing (and the registry keeps in local storage). */
export const RECENT_JOBS_LIMIT = 20;
/**
 * After a reload, a request that was sent but never answered is sent again (same Idempotency-Key)
 * only when it was made this recently; an older one is marked "Interrupted before it was sent"
 * rather than spending credits the person may no longer expect to spend.
 */
export const RESUBMIT_WINDOW_MS = 10 * 60_000;
/**
 * After "Generate" hands a job to the registry, the button stays disabled this long (with a
 * "Sent" note), so a double click or an impatient second press does not start a second job.
 */
export const SUBMIT_COOLDOWN_MS = 1500;
/**
 * A status poll or a cancel without an answer after this long is given up (its request aborted)
 * and the job reconnects; a submit gets longer, as it may carry large fields.
 */
export const JOB_REQUEST_TIMEOUT_MS = 20_000;
export const JOB_SUBMIT_TIMEOUT_MS = 60_000;
/**
 * Submit answers worth sending again with the same Idempotency-Key: 409 (the first request with
 * this key is still being processed) and the gateway failures 502/503/504 (it may not have
 * arrived). Any other 4xx/5xx is the server's refusal: the job fails with its detail.
 */
export const JOB_SUBMIT_RETRY_STATUSES: readonly number[] = [409, 502, 503, 504];

export const SOUND_EFFECT_DURATION_DEFAULT = 5;
export const ASYNC_MODE_DEFAULT = true;

/** Values a parsed motion preset falls back to (SPEC §3 "Media item"). */
export const MOTION_PRESET_DEFAULTS = {
  motion_type: 'Auto',
  motion_amount: 5,
  motion_length: 5,
  loop: 1,
  quantity: 1,
  prompt: '',
  model: '',
} as const;

export interface FinetuneLimit {
  minImages: number;
  maxImages: number;
  /** Kontext trains on input/output pairs plus a prompt rather than single images. */
  imagePairs: boolean;
  requiresPrompt: boolean;
  approxTrainingMinutes: number;
}

export const FINETUNE_LIMITS = {
  FluxFinetune: { minImages: 5, maxImages: 20, imagePairs: false, requiresPrompt: false, approxTrainingMinutes: 2 },
  FluxProFinetune: { minImages: 1, maxImages: 10, imagePairs: false, requiresPrompt: false, approxTrainingMinutes: 20 },
  FluxKontextFinetune: { minImages: 1, maxImages: 20, imagePairs: true, requiresPrompt: true, approxTrainingMinutes: 30 },
} as const satisfies Record<string, FinetuneLimit>;

export const GUEST_USERNAME = 'guest';
/** Members of this identity group skip credit checks (SPEC §6). */
export const DEVELOPER_GROUP = 'Developer';
/**
 * SPEC §9 constants that no code reads yet (the organisation member key, the social sign-in
 * count, the MFA policy), kept here as data so SPEC §9 stays in one place.
 * @public
 */
export const B2B_MEMBERS_KEY_PREFIX = 'b2b_members_';
/** @public SPEC §9 (see above). */
export const SOCIAL_PROVIDER_COUNT = 3;
/** @public SPEC §9 (see above). */
export const MFA = { required: false, methods: ['SMS', 'TOTP'] } as const;
