import { and } from 'xstate';
import { STORY_STEPS } from '@/config/story';
import type { Story } from '@/services/schemas/story';
import { concatInputs } from '@/machines/story/story-board';
import { storyWizardSetup } from '@/machines/story/story-wizard.setup';
import { boardStep, errorOf, FOLLOWED_FILM_MADE, navFollowingFilm, nav, rewriting, storyOf } from '@/machines/story/story-wizard.states';
import type { IdeaFields } from '@/machines/story/story-wizard.types';

// Screens may not import services; they get these types from here.
export type { Story, StoryAsset, StoryAudio, Storyboard, StoryElement, StoryScene, StorySummary } from '@/services/schemas/story';
export type { Media } from '@/services/schemas/media';
export type { CreditCheckUser } from '@/lib/affordability';
export type { StoryPartState, StoryPartStates, StoryCost } from '@/lib/story';
export type * from '@/machines/story/story-wizard.types';
export { STORY_SUBMIT_RETRIES } from '@/machines/story/story-wizard.setup';
export type { StoryPaidRequest } from '@/machines/story/story-wizard.setup';
export { STORY_SAVE_DEBOUNCE_MS } from '@/machines/story/story-autosave.machine';

/**
 * The AI Story production wizard (issue 6; SPEC §1, §2.7, §3 Story, §7 story calls). Top-level
 * states are the steps a person sees: loading → idea | storyboard | elements | scenes |
 * scriptboard (the step the server's story records) | loadFailed | notFound; concatenating → done.
 * Each step has its own sub-states (idle, generating — the paid-request child: credit check,
 * waiting for the autosave to be held, submitting ⇄ retrying —, cancelling, rewriting…).
 *
 * Beside the steps, two children for the wizard's whole life: the autosave
 * (story-autosave.machine) saves edits and the current step 800 ms after the last change, retried
 * with back-off while it fails, merged after a 412, held while a paid call sends the board; the
 * poller (story-poller.machine) reads the story while any of its jobs is live and sends each
 * answer back (`story.polled`), paused while the page is hidden. The wizard keeps the draft and
 * answers the autosave's `autosave.due` with what to send. Going back
 * never discards anything; parts made from inputs that changed since are derived as stale
 * (storyPartStates), kept and shown.
 */
export const storyWizardMachine = storyWizardSetup.createMachine({
  id: 'storyWizard',
  context: ({ input }) => ({
    storyId: input.storyId,
    story: null,
    board: null,
    baseBoard: null,
    revision: '',
    boardVersion: 0,
    savedBoardVersion: 0,
    sendingBoardVersion: 0,
    step: 'idea',
    savedStep: 'idea',
    sendingStep: 'idea',
    saving: false,
    saveErrors: 0,
    saveError: null,
    user: input.user,
    credit: input.credit,
    creditLoading: input.creditLoading ?? false,
    hidden: input.hidden ?? false,
    ideaFields: null,
    request: null,
    idempotencyKey: null,
    take: null,
    cancelPart: null,
    followFilm: false,
    error: null,
    notice: null,
  }),
  // Beside the steps for the wizard's whole life: the inspector shows them waiting, saving, polling.
  invoke: [
    { id: 'storyPoller', systemId: 'storyPoller', src: 'storyPoller', input: ({ context }) => ({ hidden: context.hidden }) },
    { id: 'storyAutosave', systemId: 'storyAutosave', src: 'storyAutosave' },
    { id: 'storyExport', systemId: 'storyExport', src: 'storyExport' },
  ],
  on: {
    'story.account': { actions: 'setAccount' },
    'story.visibility': { actions: ['setHidden', 'tellPollerVisibility'] },
    'error.dismiss': { actions: 'clearError' },
    'autosave.due': [{ guard: 'canSaveNow', actions: 'answerSave' }, { actions: 'answerNothing' }],
    'autosave.saving': { actions: 'showSaving' },
    'autosave.saved': { actions: { type: 'markSaved', params: ({ event }) => ({ story: event.story }) } },
    'autosave.failed': { actions: { type: 'markSaveFailed', params: ({ event }) => ({ message: event.message }) } },
    'autosave.merged': { actions: { type: 'takeMerged', params: ({ event }) => ({ story: event.story }) } },
    'story.polled': [
      {
        guard: { type: 'jobsEnded', params: ({ event }) => ({ story: event.story }) },
        actions: [{ type: 'storePolled', params: ({ event }) => ({ story: event.story }) }, 'reportCreditsChanged'],
      },
      { actions: { type: 'storePolled', params: ({ event }) => ({ story: event.story }) } },
    ],
    'notice.dismiss': { actions: 'clearNotice' },
    'export.file': { guard: 'canExportFile', actions: 'saveExportFile' },
    'export.zip': { guard: 'canExport', actions: { type: 'tellExport', params: { type: 'zip.start' } } },
    'export.retry': { guard: 'canExport', actions: { type: 'tellExport', params: { type: 'zip.retry' } } },
    'export.cancel': { actions: 'cancelExport' },
    'story.stale': { guard: 'hasStoryId', actions: 'askMerge' },
  },
  initial: 'loading',
  states: {
    loading: {
      always: { guard: 'isNewStory', target: 'idea' },
      invoke: {
        src: 'loadStory',
        input: ({ context }) => ({ id: context.storyId ?? '' }),
        onDone: [
          ...(['concatenating', 'done', ...STORY_STEPS] as const).map((stage) => ({
            guard: { type: 'resumesAt' as const, params: ({ event }: { event: { output: Story } }) => ({ story: event.output, stage }) },
            target: stage === 'concatenating' ? '#storyWizard.concatenating.watching' : `#storyWizard.${stage}`,
            actions: [{ type: 'loadStory' as const, params: storyOf }, 'schedulePoll' as const],
          })),
        ],
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'loadFailed', actions: { type: 'setError', params: errorOf } },
        ],
      },
    },
    notFound: {
      on: { 'story.retry': { target: 'loading', actions: 'clearError' } },
    },
    loadFailed: {
      on: { 'story.retry': { target: 'loading', actions: 'clearError' } },
    },
    idea: {
      entry: { type: 'enterStep', params: { step: 'idea' } },
      initial: 'idle',
      states: {
        idle: {
          always: FOLLOWED_FILM_MADE,
          on: {
            ...nav('idea'),
            'idea.submit': [
              { guard: and(['ideaValid', 'hasStory']), target: 'savingIdea', actions: 'setIdeaFields' },
              { guard: and(['ideaValid', 'isNewStory']), target: 'creating', actions: 'setIdeaFields' },
            ],
            'idea.rewrite': { guard: 'hasStory', target: 'rewriting' },
          },
        },
        creating: {
          invoke: {
            src: 'createStory',
            input: ({ context }) => {
              const fields = context.ideaFields as IdeaFields;
              return {
                idea: fields.idea.trim(),
                duration: fields.duration,
                aspect_ratio: fields.aspect_ratio,
                style: fields.style,
                ...(fields.title ? { title: fields.title } : {}),
                ...(fields.image_urls && fields.image_urls.length > 0 ? { image_urls: fields.image_urls } : {}),
              };
            },
            onDone: {
              target: '#storyWizard.storyboard',
              actions: [{ type: 'loadStory', params: storyOf }, 'reportCreated', 'schedulePoll'],
            },
            onError: { target: 'idle', actions: { type: 'setError', params: errorOf } },
          },
        },
        savingIdea: {
          invoke: {
            src: 'saveStory',
            input: ({ context }) => {
              const fields = context.ideaFields as IdeaFields;
              return {
                id: context.storyId ?? '',
                fields: { idea: fields.idea.trim(), duration: fields.duration, aspect_ratio: fields.aspect_ratio, style: fields.style },
              };
            },
            onDone: { target: '#storyWizard.storyboard', actions: [{ type: 'takeIdea', params: storyOf }, 'tellAutosave'] },
            onError: { target: 'idle', actions: { type: 'setError', params: errorOf } },
          },
        },
        rewriting: rewriting('#storyWizard.storyboard'),
      },
    },
    storyboard: boardStep('storyboard', [], {
      on: { 'idea.rewrite': { target: 'rewriting' } },
      states: { rewriting: rewriting('#storyWizard.storyboard.idle') },
    }),
    elements: boardStep('elements', ['elements']),
    scenes: boardStep('scenes', ['scenes']),
    scriptboard: boardStep('scriptboard', ['videos']),
    concatenating: {
      entry: 'stopFollowingFilm',
      initial: 'submitting',
      states: {
        submitting: {
          invoke: {
            src: 'concat',
            input: ({ context }) => ({
              id: context.storyId ?? '',
              ...(context.story && context.board ? concatInputs(context.story, context.board) : { videoUrls: [], audioUrls: [] }),
            }),
            onDone: { target: 'watching', actions: [{ type: 'storeStory', params: storyOf }, 'restartPolling'] },
            onError: { target: '#storyWizard.scriptboard', actions: { type: 'setError', params: errorOf } },
          },
        },
        watching: {
          always: [
            { guard: 'concatSucceeded', target: '#storyWizard.done' },
            { guard: 'concatEnded', target: '#storyWizard.scriptboard', actions: 'setConcatError' },
          ],
          on: {
            ...navFollowingFilm(),
            'part.cancel': { guard: 'partRunning', target: 'cancelling', actions: 'setCancelPart' },
          },
        },
        cancelling: {
          invoke: {
            src: 'cancelPart',
            input: ({ context }) => ({ id: context.storyId ?? '', part: context.cancelPart ?? 'concat' }),
            onDone: {
              target: '#storyWizard.scriptboard',
              actions: [{ type: 'storeStory', params: storyOf }, 'restartPolling', 'reportCreditsChanged'],
            },
            onError: { target: 'watching', actions: { type: 'setError', params: errorOf } },
          },
        },
      },
    },
    done: boardStep('done', ['videos']),
  },
});
