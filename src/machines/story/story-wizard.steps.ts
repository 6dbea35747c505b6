import { and } from 'xstate';
import { STORY_STEPS } from '@/config/story';
import type { Story } from '@/services/schemas/story';
import { concatInputs } from '@/machines/story/story-board';
import { boardStep, errorOf, FOLLOWED_FILM_MADE, nav, navFollowingFilm, rewriting, STEP, storyOf } from '@/machines/story/story-wizard.states';
import type { IdeaFields, StoryWizardContext } from '@/machines/story/story-wizard.types';

/**
 * The wizard region of the storyWizard machine: the steps a person sees, each with its own
 * sub-states (story-wizard.states builds the board steps). Data: the machine names the guards and
 * actions.
 */
export const WIZARD_REGION = {
  initial: 'loading',
  states: {
    loading: {
      always: { guard: 'isNewStory', target: 'idea' },
      invoke: {
        src: 'loadStory',
        input: ({ context }: { context: StoryWizardContext }) => ({ id: context.storyId ?? '' }),
        onDone: [
          ...(['concatenating', 'done', ...STORY_STEPS] as const).map((stage) => ({
            guard: { type: 'resumesAt' as const, params: ({ event }: { event: { output: Story } }) => ({ story: event.output, stage }) },
            target: stage === 'concatenating' ? `${STEP('concatenating')}.watching` : STEP(stage),
            actions: [{ type: 'loadStory' as const, params: storyOf }, 'schedulePoll' as const],
          })),
        ],
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'loadFailed', actions: { type: 'setError', params: errorOf } },
        ],
      },
    },
    notFound: { on: { 'story.retry': { target: 'loading', actions: 'clearError' } } },
    loadFailed: { on: { 'story.retry': { target: 'loading', actions: 'clearError' } } },
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
            input: ({ context }: { context: StoryWizardContext }) => {
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
            onDone: { target: STEP('storyboard'), actions: [{ type: 'loadStory', params: storyOf }, 'reportCreated', 'schedulePoll'] },
            onError: { target: 'idle', actions: { type: 'setError', params: errorOf } },
          },
        },
        savingIdea: {
          invoke: {
            src: 'saveStory',
            input: ({ context }: { context: StoryWizardContext }) => {
              const fields = context.ideaFields as IdeaFields;
              return {
                id: context.storyId ?? '',
                fields: { idea: fields.idea.trim(), duration: fields.duration, aspect_ratio: fields.aspect_ratio, style: fields.style },
              };
            },
            onDone: { target: STEP('storyboard'), actions: [{ type: 'takeIdea', params: storyOf }, 'scheduleSave'] },
            onError: { target: 'idle', actions: { type: 'setError', params: errorOf } },
          },
        },
        rewriting: rewriting(STEP('storyboard')),
      },
    },
    storyboard: boardStep('storyboard', [], {
      on: { 'idea.rewrite': { target: 'rewriting' } },
      states: { rewriting: rewriting(`${STEP('storyboard')}.idle`) },
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
            input: ({ context }: { context: StoryWizardContext }) => ({
              id: context.storyId ?? '',
              ...(context.story && context.board ? concatInputs(context.story, context.board) : { videoUrls: [], audioUrls: [] }),
            }),
            onDone: { target: 'watching', actions: [{ type: 'storeStory', params: storyOf }, 'restartPolling'] },
            onError: { target: STEP('scriptboard'), actions: { type: 'setError', params: errorOf } },
          },
        },
        watching: {
          always: [
            { guard: 'concatSucceeded', target: STEP('done') },
            { guard: 'concatEnded', target: STEP('scriptboard'), actions: 'setConcatError' },
          ],
          on: {
            ...navFollowingFilm(),
            'part.cancel': { guard: 'partRunning', target: 'cancelling', actions: 'setCancelPart' },
          },
        },
        cancelling: {
          invoke: {
            src: 'cancelPart',
            input: ({ context }: { context: StoryWizardContext }) => ({ id: context.storyId ?? '', part: context.cancelPart ?? 'concat' }),
            onDone: { target: STEP('scriptboard'), actions: [{ type: 'storeStory', params: storyOf }, 'restartPolling', 'reportCreditsChanged'] },
            onError: { target: 'watching', actions: { type: 'setError', params: errorOf } },
          },
        },
      },
    },
    done: boardStep('done', ['videos']),
  },
} as const;
