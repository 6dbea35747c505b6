import { Badge, Group, Stepper, Text } from '@mantine/core';
import { STORY_STEP_LABELS, STORY_STEPS, type StoryStep } from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import type { StoryPartState } from '@/lib/story';
import { selectActiveStep, selectWizardState } from '@/machines/story/story-wizard.selectors';
import { StoryActorContext, useStoryView } from '@/screens/story/story-parts';

const count = (states: Record<string, StoryPartState>, state: StoryPartState): number =>
  Object.values(states).filter((candidate) => candidate === state).length;

interface StepStatus {
  running: number;
  stale: number;
}

/** What each step's badge says: how many of its parts are being made and how many changed since. */
function useStepStatuses(): Record<StoryStep, StepStatus> {
  const view = useStoryView();
  const none = { running: 0, stale: 0 };
  if (!view) return { idea: none, storyboard: none, elements: none, scenes: none, scriptboard: none };
  const { states, running } = view;
  return {
    idea: none,
    storyboard: none,
    elements: { running: running.elements, stale: count(states.elements, 'stale') },
    scenes: { running: running.scenes, stale: count(states.sceneImages, 'stale') },
    scriptboard: {
      running: running.videos + running.audio + running.concat,
      stale: count(states.sceneVideos, 'stale') + (states.audio === 'stale' ? 1 : 0),
    },
  };
}

function StepBadges({ status }: { status: StepStatus }) {
  if (status.running === 0 && status.stale === 0) return null;
  return (
    <Group gap={4} component="span">
      {status.running > 0 && (
        <Badge size="xs" color="blue" variant="light" component="span" style={{ textTransform: 'none' }}>
          {STORY_TEXTS.stepStatus.running(status.running)}
        </Badge>
      )}
      {status.stale > 0 && (
        <Badge size="xs" color="yellow" variant="light" component="span" style={{ textTransform: 'none' }}>
          {STORY_TEXTS.stepStatus.stale(status.stale)}
        </Badge>
      )}
    </Group>
  );
}

/**
 * The five steps (SPEC §2.7). A step the story can reach is a button; one it cannot reach yet is
 * shown but not focusable. Each step's badges say what runs in it and what changed since it was made.
 */
export function StoryStepper() {
  const story = StoryActorContext.useActorRef();
  const active = StoryActorContext.useSelector(selectActiveStep);
  const wizardState = StoryActorContext.useSelector(selectWizardState);
  const view = useStoryView();
  const statuses = useStepStatuses();
  const reachable = (step: StoryStep): boolean => step === 'idea' || Boolean(view?.reachable[step]);

  return (
    <nav aria-label={STORY_TEXTS.stepsLabel}>
      <Stepper
        active={STORY_STEPS.indexOf(active)}
        size="sm"
        onStepClick={(index) => {
          const step = STORY_STEPS[index];
          if (step && step !== active && reachable(step)) story.send({ type: 'step.goto', step });
        }}
      >
        {STORY_STEPS.map((step) => (
          <Stepper.Step
            key={step}
            label={STORY_STEP_LABELS[step]}
            allowStepSelect={reachable(step)}
            aria-current={step === active ? 'step' : undefined}
            aria-disabled={reachable(step) ? undefined : true}
            description={
              step === 'scriptboard' && wizardState === 'done' ? (
                <Text component="span" size="xs" c="teal">
                  {STORY_TEXTS.stepStatus.done}
                </Text>
              ) : (
                <StepBadges status={statuses[step]} />
              )
            }
          />
        ))}
      </Stepper>
    </nav>
  );
}

/** "Saved" / "Saving…" / "Not saved — retrying": the story's edits, saved as they are made. */
export function SaveIndicator() {
  const view = useStoryView();
  if (!view) return null;
  return (
    <Text size="sm" c={view.saveState === 'failed' ? 'red' : 'dimmed'} role="status" aria-live="polite">
      {STORY_TEXTS.save[view.saveState]}
    </Text>
  );
}
