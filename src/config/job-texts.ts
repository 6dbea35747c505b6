/**
 * Kinora's own texts for generation jobs: the jobs panel, the phases a job goes through and the
 * toasts announcing a finished job. SPEC gives none of these word for word, so they live here
 * rather than in `messages.ts`, which holds SPEC's texts only.
 */

/** What a job is doing, in one word, as the jobs panel and the result cards name it. */
export type JobPhase =
  | 'checking'
  | 'submitting'
  | 'queued'
  | 'held'
  | 'processing'
  | 'reconnecting'
  | 'paused'
  | 'cancelling'
  | 'succeeded'
  | 'failed'
  | 'nsfw'
  | 'cancelled'
  | 'denied';

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;

/** What a job is doing, from its progress (0…100) and its error. */
type PhaseText = (progress: number, error: string | null) => string;

const PHASE_TEXTS: Readonly<Record<JobPhase, PhaseText>> = {
  checking: () => 'Checking credits…',
  submitting: () => 'Sending…',
  queued: () => 'Queued',
  held: () => 'Held',
  processing: (progress) => `Processing ${Math.round(progress)} %`,
  reconnecting: () => 'Reconnecting…',
  paused: () => 'Paused while the tab is hidden',
  cancelling: () => 'Cancelling…',
  succeeded: () => 'Succeeded',
  failed: (_progress, error) => (error ? `Failed: ${error}` : 'Failed'),
  nsfw: () => 'Flagged as unsafe',
  cancelled: () => 'Cancelled',
  // A job is denied for want of credits or of a signed-in user: its error says which.
  denied: (_progress, error) => error ?? 'Not enough credits',
};

/** SPEC §6 refusal, the same words as the server's 402 detail. */
const notEnoughCredits = (cost: number, balance: number | null): string =>
  `Not enough credits: this costs ${cost} credits and you have ${balance ?? 0}.`;

const refunded = (cost: number): string => (cost > 0 ? `Refunded ${credits(cost)}` : 'Refunded');

export const JOB_TEXTS = {
  panelTitle: 'Jobs',
  button: 'Jobs',
  buttonLabel: (running: number): string => `Jobs, ${running} running`,
  empty: 'No jobs yet. Anything you generate shows up here while it runs.',
  liveHeading: 'Running',
  recentHeading: 'Recent',
  notifyDesktop: 'Notify me on desktop',
  notifyBlocked: 'Desktop notifications are blocked in this browser.',
  cancel: 'Cancel',
  dismiss: 'Dismiss',
  viewResult: 'View result',
  cost: credits,
  refunded,
  elapsed: (clock: string): string => `Elapsed ${clock}`,
  took: (clock: string): string => `Took ${clock}`,
  phase: PHASE_TEXTS,
  /** Toasts and desktop notifications when a job ends. */
  finished: {
    succeeded: (toolTitle: string): string => `${toolTitle} finished`,
    failed: (toolTitle: string, error: string | null): string =>
      error ? `${toolTitle} failed: ${error}` : `${toolTitle} failed`,
    nsfw: (toolTitle: string, refundedCredits: number | null): string =>
      refundedCredits !== null
        ? `${toolTitle} was flagged as unsafe; ${credits(refundedCredits)} refunded`
        : `${toolTitle} was flagged as unsafe`,
    cancelled: (toolTitle: string, refundedCredits: number | null): string =>
      refundedCredits !== null ? `${toolTitle} cancelled; ${credits(refundedCredits)} refunded` : `${toolTitle} cancelled`,
    denied: (toolTitle: string, error: string | null): string => `${toolTitle}: ${error ?? 'not enough credits'}`,
  },
  /** Errors a job machine sets itself; the server's `detail` wins when there is one. */
  notEnoughCredits,
  failed: 'The job failed.',
  nsfw: 'The result was flagged as unsafe.',
  notFound: 'This job no longer exists.',
  /** A job whose request had not been sent when the page went away, and that cannot be sent again now. */
  interrupted: 'Interrupted before it was sent',
} as const;

const addPictureText = (label: string): string => {
  const name = label.toLowerCase().replace(/ picture$/, '');
  return name === 'image' ? 'Add a picture' : `Add the ${name} picture`;
};

const UPLOAD_PAGE_WORDS: Readonly<Record<string, string>> = { image: 'images', video: 'videos', audio: 'audio' };
const UPLOAD_FIELD_LABELS: Readonly<Record<string, string>> = { image: 'Picture', video: 'Video file', audio: 'Audio file' };

/** Texts of the generation tool pages (form, cost line, results). */
export const TOOL_TEXTS = {
  model: 'Model',
  modelOption: (label: string, cost: number): string => `${label} · ${credits(cost)}`,
  noModel: 'No model is available for this tool right now.',
  /** A result file whose links kept failing (issue 17). */
  fileNotLoaded: (label: string): string => `${label} could not be loaded. Reload the page to try again.`,
  fileRefreshing: 'Loading a fresh link…',
  voice: 'Voice',
  duration: 'Duration (seconds)',
  durationRange: (min: number, max: number): string => `Enter a whole number of seconds from ${min} to ${max}`,
  aspectRatio: 'Aspect ratio',
  generate: 'Generate',
  signInToGenerate: 'Sign in to generate',
  signInToUpload: 'Sign in to upload',
  balanceLoading: 'Loading your balance…',
  notEnoughCredits,
  submitted: 'Sent. Follow it below or in the jobs panel.',
  enterPrompt: 'Enter a prompt',
  enterText: 'Enter the text to speak',
  addPicture: (label: string): string => addPictureText(label),
  /** A missing input by its kind: "Add a picture", "Add the end frame picture", "Add a video", "Add an audio file". */
  addInput: (label: string, media: 'image' | 'video' | 'audio'): string => {
    if (media === 'image') return addPictureText(label);
    const name = label.toLowerCase().replace(media === 'video' ? / video$/ : / audio$/, '');
    if (media === 'video') return name === 'video' ? 'Add a video' : `Add the ${name} video`;
    return name === 'audio' ? 'Add an audio file' : `Add the ${name} audio`;
  },
  /** Alternatives of which one is needed: "Add a face picture or a face video." */
  addOneOf: (labels: readonly string[]): string => `Add a ${labels.map((label) => label.toLowerCase()).join(' or a ')}.`,
  /** Under a video effect's end frame when the chosen effect needs one (SPEC §5). */
  endFrameNeeded: 'This effect needs an end frame.',
  faceOrderIndex: 'Face order index',
  faceOrderHelp: 'Which face of the target picture to replace: 0 = leftmost, then 1, 2… to the right.',
  addPictureButton: 'Add another picture',
  /** Face swap's picture slots: the target first, then the faces put onto it. */
  targetPicture: 'Target picture',
  facePicture: (index: number): string => `Face ${index}`,
  /** A repeated picture input's numbered slot, e.g. "Elements 2". */
  numberedPicture: (label: string, index: number): string => `${label} ${index}`,
  removePicture: (label: string): string => `Remove ${label}`,
  help: (title: string): string => `Help: ${title}`,
  resultsHeading: 'Results',
  resultsEmpty: 'Nothing generated yet. Your results appear here, newest first.',
  download: 'Download',
  /** A video result's links: its MP4, its GIF, and where it can be taken on to. */
  downloadMp4: 'Download MP4',
  gif: 'GIF',
  extend: 'Extend',
  edit: 'Edit',
  /** A link's accessible name: what it does, then which result (several can share a card). */
  resultAction: (action: string, label: string): string => `${action} ${label}`,
  notRefunded: 'Not refunded',
  /** Issue 21 item 7: the seed a job's model was given. */
  seed: (seed: number): string => `Seed ${seed}`,
  seedLabel: 'Seed (optional)',
  seedHint: 'Empty: one is chosen for you. A result’s seed (shown on it) makes the same picture again.',
  seedInvalid: (max: number): string => `Seed must be a whole number from 0 to ${max}, or empty.`,
  /** Issue 21 item 7: several pictures per run, a negative prompt. */
  imagesLabel: 'Images',
  imagesHint: 'Pictures made in one run, each with its own seed (the seed, then the seed + 1, …).',
  /** The cost line, for a run of several pictures "Costs 8 credits (2 images × 4 credits) · you have 40". */
  cost: (cost: number, images: number, balance: number | null): string => {
    const each = images > 1 ? ` (${images} images × ${credits(cost / images)})` : '';
    return balance === null ? `Costs ${credits(cost)}${each}` : `Costs ${credits(cost)}${each} · you have ${balance}`;
  },
  negativePromptLabel: 'Negative prompt (optional)',
  negativePromptHint: 'What the picture must not show, e.g. people, text, blur.',
  negativePromptTooLong: (max: number): string => `The negative prompt can be at most ${max} characters.`,
  upload: {
    drop: (kind: string): string => `Drop ${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind} here or choose a file`,
    choose: 'Choose file',
    /** The picker button's accessible name: the field, and "required" when it is. */
    chooseLabel: (label: string, required: boolean): string => `Choose file: ${label}${required ? ' (required)' : ''}`,
    cancel: 'Cancel upload',
    clear: 'Remove',
    retry: 'Try again',
    uploading: (percent: number): string => `Uploading ${Math.round(percent)} %`,
    uploadedHeading: 'Your uploads',
    uploadsEmpty: 'Nothing uploaded yet.',
    openUploadPage: (kind: string): string => `Upload ${UPLOAD_PAGE_WORDS[kind] ?? 'images'} page`,
    /** The file input's label on the upload pages. */
    fieldLabel: (kind: string): string => UPLOAD_FIELD_LABELS[kind] ?? 'Picture',
  },
  /** The upload pages' titles (SPEC §2.5), used by the router and the group index pages. */
  /** The AI Video group page's link to Parallax Motion (SPEC §2.4: not in the menu). */
  parallaxMotionLink: 'Parallax Motion',
  uploadPageTitle: { image: 'Upload Image', audio: 'Upload Audio', video: 'Upload Video' },
  promptHelper: {
    menu: 'Prompt helper',
    suggest: 'Suggest prompt',
    refine: 'Refine prompt',
    guess: 'Guess from picture',
    inspire: 'Inspire me',
    working: 'Writing a prompt…',
  },
  reimagineLink: 'Reimagine a picture instead',
  /** A result video a tool page was opened with (Edit Video's `?video=`), used as its video input. */
  sourceVideo: {
    loading: 'Loading your video…',
    failed: (error: string): string => (error ? `Could not load your video: ${error}` : 'Could not load your video.'),
    retry: 'Try again',
    unavailable: 'This result is not a finished video.',
    useAnother: 'Use another video',
    player: (label: string, name: string | null): string => (name ? `${label}: ${name}` : label),
  },
} as const;
