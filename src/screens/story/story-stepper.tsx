import { Badge, Group, Stepper, Text } from '@mantine/core';
import { STORY_STEP_LABELS, STORY_STEPS, type StoryStep } from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import { shallowEqual } from '@xstate/react';
import {
  sameStepStatuses,
  selectActiveStep,
  selectReachableSteps,
  selectSaveState,
  selectStepStatuses,
  selectWizardState,
  type StepStatus,
} from '@/machines/story/story-wizard.selectors';
import { StoryActorContext } from '@/screens/story/story-parts';

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
  const reachableSteps = StoryActorContext.useSelector(selectReachableSteps, shallowEqual);
  const statuses = StoryActorContext.useSelector(selectStepStatuses, sameStepStatuses);
  const reachable = (step: StoryStep): boolean => step === 'idea' || Boolean(reachableSteps?.[step]);

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
  const saveState = StoryActorContext.useSelector(selectSaveState);
  if (!saveState) return null;
  return (
    <Text size="sm" c={saveState === 'failed' ? 'red' : 'dimmed'} role="status" aria-live="polite">
      {STORY_TEXTS.save[saveState]}
    </Text>
  );
}
