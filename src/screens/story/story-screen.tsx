import { Alert, Anchor, Button, Container, Group, Paper, Stack, Text } from '@mantine/core';
import { shallowEqual, useSelector } from '@xstate/react';
import { useCallback, useDeferredValue, useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { SessionActorContext } from '@/components/session/session-context';
import { ROUTES } from '@/config/routes';
import { STORY_STEP_LABELS, STORY_STEPS, type StoryStep } from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import { selectOptionalCreditBalance, selectOptionalCreditsLoading } from '@/machines/session/credits.selectors';
import { selectCreditsRef, selectCurrentUser, selectCurrentUserId, selectIsSignedIn } from '@/machines/session/session.selectors';
import { selectActiveStep, selectReachableSteps, selectStoryTitle, selectWizardState } from '@/machines/story/story-wizard.selectors';
import { ElementsStep } from '@/screens/story/elements-step';
import { IdeaStep } from '@/screens/story/idea-step';
import { ScenesStep } from '@/screens/story/scenes-step';
import { FilmDone, ScriptboardStep } from '@/screens/story/scriptboard-step';
import { StoriesList } from '@/screens/story/stories-list';
import { StoryHoldPanel, StoryHoldProvider, useHeldForStory, useStoryHoldRef } from '@/screens/story/story-hold-panel';
import { StoryActorContext, StoryError, StoryNotice } from '@/screens/story/story-parts';
import { SaveIndicator, StoryStepper } from '@/screens/story/story-stepper';
import { StoryboardStep } from '@/screens/story/storyboard-step';
import { ToolHelpButton } from '@/screens/tools/tool-help-button';
import { ToolPageHeader } from '@/screens/tools/tool-page-header';
import { inspect } from '@/lib/inspection/hub';
import { isPageHidden } from '@/lib/page-hidden';

/** SPEC §2.10 topic 28: AI Story. */
const STORY_HELP_TOPIC = 28;

/**
 * Connects the story's actor to the rest of the app: the person and their balance go in (the
 * credit check), page visibility goes in (polling pauses while hidden); the balance is refreshed
 * when the story spent or got back credits, and a story just created replaces the page's address
 * with its own, so a reload resumes it.
 */
function useStoryBridge(): void {
  const story = StoryActorContext.useActorRef();
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const credit = useSelector(creditsRef, selectOptionalCreditBalance);
  const creditLoading = useSelector(creditsRef, selectOptionalCreditsLoading);
  const navigate = useNavigate();
  const creditsRefLatest = useRef(creditsRef);
  useEffect(() => {
    creditsRefLatest.current = creditsRef;
  }, [creditsRef]);

  // What the story can spend: the free balance and what its hold keeps (a step is paid from the hold).
  const held = useHeldForStory();
  const hold = useStoryHoldRef();
  useEffect(() => {
    const spendable = credit === null || credit === undefined ? null : credit + held;
    if (story.getSnapshot().status === 'active') story.send({ type: 'story.account', user, credit: spendable, creditLoading });
  }, [story, user, credit, held, creditLoading]);

  useEffect(() => {
    const onVisibility = () => {
      if (story.getSnapshot().status === 'active') story.send({ type: 'story.visibility', hidden: isPageHidden() });
    };
    onVisibility();
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [story]);

  useEffect(() => {
    const subscriptions = [
      story.on('story.created', (event) => void navigate(ROUTES.aiProduction.story(event.id), { replace: true })),
      // The same refresh the jobs bridge asks for when a job spends or refunds credits.
      story.on('story.creditsChanged', () => {
        creditsRefLatest.current?.send({ type: 'credits.refresh' });
        // A part spent (or got back) credits: what is left to make, and the hold, changed.
        hold?.send({ type: 'hold.refresh' });
      }),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [story, navigate, hold]);
}

const STEP_SCREENS: Record<StoryStep, () => ReactNode> = {
  idea: () => <IdeaStep />,
  storyboard: () => <StoryboardStep />,
  elements: () => <ElementsStep />,
  scenes: () => <ScenesStep />,
  scriptboard: () => <ScriptboardStep />,
};

/** Back to the step before, on to the next one when the story can reach it. */
function StepNavigation({ step }: { step: StoryStep }) {
  const story = StoryActorContext.useActorRef();
  const index = STORY_STEPS.indexOf(step);
  const previous = STORY_STEPS[index - 1];
  const next = STORY_STEPS[index + 1];
  const reachableSteps = StoryActorContext.useSelector(selectReachableSteps, shallowEqual);
  if (!reachableSteps) return null;
  return (
    <Group justify="space-between">
      {previous ? (
        <Button variant="default" onClick={() => story.send({ type: 'step.goto', step: previous })}>
          {STORY_TEXTS.back}
        </Button>
      ) : (
        <span />
      )}
      {next && (
        <Button disabled={!reachableSteps[next]} onClick={() => story.send({ type: 'step.next' })}>
          {STORY_TEXTS.next(STORY_STEP_LABELS[next])}
        </Button>
      )}
    </Group>
  );
}

function StoryPage({ isNew }: { isNew: boolean }) {
  useStoryBridge();
  const story = StoryActorContext.useActorRef();
  const wizardState = StoryActorContext.useSelector(selectWizardState);
  // The step's section is drawn as a transition: the click that changes step paints at once (the
  // stepper moves) and the next step's section follows, instead of the click waiting for it
  // (issue 19 item 4: "on to Elements" with 12 scenes took 370 ms to paint at 4× CPU).
  const step = useDeferredValue(StoryActorContext.useSelector(selectActiveStep));
  // The title only: the whole view changes with every key typed in a scene (issue 19 item 4).
  const title = StoryActorContext.useSelector(selectStoryTitle);
  const header = (
    <ToolPageHeader
      title={title || STORY_TEXTS.title}
      groupLabel={STORY_TEXTS.groupLabel}
      groupPath={ROUTES.aiProduction.root}
      aside={<ToolHelpButton topicIndex={STORY_HELP_TOPIC} />}
    >
      {isNew ? (
        <Text c="dimmed">{STORY_TEXTS.intro}</Text>
      ) : (
        <Group gap="md">
          <Anchor component={Link} to={ROUTES.aiProduction.aiStory} size="sm">
            {STORY_TEXTS.allStories}
          </Anchor>
          <SaveIndicator />
        </Group>
      )}
    </ToolPageHeader>
  );

  if (wizardState === 'loading') {
    return (
      <Stack gap="lg">
        {header}
        <Text c="dimmed" role="status">
          {STORY_TEXTS.loading}
        </Text>
      </Stack>
    );
  }
  if (wizardState === 'notFound' || wizardState === 'loadFailed') {
    return (
      <Stack gap="lg">
        {header}
        <Alert color={wizardState === 'notFound' ? 'yellow' : 'red'} role="alert">
          <Stack gap="xs">
            <Text>{wizardState === 'notFound' ? STORY_TEXTS.notFound : STORY_TEXTS.loadFailed}</Text>
            {wizardState === 'loadFailed' && (
              <Group>
                <Button variant="default" size="xs" onClick={() => story.send({ type: 'story.retry' })}>
                  {STORY_TEXTS.retry}
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      {header}
      <StoryStepper />
      <StoryError />
      <StoryNotice />
      <StoryHoldPanel />
      {wizardState === 'done' && <FilmDone />}
      {/* Keyed by step: each step's inputs start from the story as it is when the step opens. */}
      <Paper key={step} withBorder={false}>
        {STEP_SCREENS[step]()}
      </Paper>
      <StepNavigation step={step} />
      {isNew && <StoriesList />}
    </Stack>
  );
}

/**
 * /ai-production/ai-story (a new story at the idea step, then the person's stories) and
 * /ai-production/ai-story/:id (a story resumed at the step it was left on): SPEC §1 AI Story.
 */
export function StoryScreen({ id }: { id: string | null }) {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const credit = useSelector(creditsRef, selectOptionalCreditBalance);
  const creditLoading = useSelector(creditsRef, selectOptionalCreditsLoading);
  // Credits held or released: the header's balance is read again.
  const refreshCredits = useCallback(() => creditsRef?.send({ type: 'credits.refresh' }), [creditsRef]);
  return (
    <Container size="lg" py="xl">
      {signedIn ? (
        // One actor per story and person; the bridge keeps the person and balance current.
        <StoryActorContext.Provider
          key={`${userId ?? ''}/${id ?? 'new'}`}
          options={{ id: 'storyWizard', input: { storyId: id, user, credit, creditLoading, hidden: isPageHidden() }, inspect }}
        >
          {id === null ? (
            <StoryPage isNew />
          ) : (
            <StoryHoldProvider storyId={id} onChanged={refreshCredits}>
              <StoryPage isNew={false} />
            </StoryHoldProvider>
          )}
        </StoryActorContext.Provider>
      ) : (
        <Stack gap="lg">
          <ToolPageHeader
            title={STORY_TEXTS.title}
            groupLabel={STORY_TEXTS.groupLabel}
            groupPath={ROUTES.aiProduction.root}
            aside={<ToolHelpButton topicIndex={STORY_HELP_TOPIC} />}
          >
            <Text c="dimmed">{STORY_TEXTS.intro}</Text>
          </ToolPageHeader>
          <Paper withBorder p="lg" radius="md">
            <Anchor component={Link} to={ROUTES.authentication}>
              {STORY_TEXTS.signIn}
            </Anchor>
          </Paper>
        </Stack>
      )}
    </Container>
  );
}
