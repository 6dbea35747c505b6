import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { SubmitBlocker } from '@/components/session/use-submit-blocker';
import { TOOL_TEXTS } from '@/config/job-texts';
import { ROUTES } from '@/config/routes';

/** Where a paid form's Generate is: idle, handing the job over, or just handed over. */
export type SendPhase = 'idle' | 'sending' | 'sent';

interface GenerateBarProps {
  /** What the job costs (and the balance), read out when it changes; nothing while unknown. */
  cost: ReactNode;
  /** The cost line's test id (each page's tests find its own). */
  costTestId: string;
  blocker: SubmitBlocker;
  phase: SendPhase;
  /** The button's text and the note once the job is handed over (default: the generation tools'). */
  label?: string;
  submitted?: string;
}

/**
 * The foot of every paid form (generation tools, video creation, LoRA Finetune): the cost, then
 * "Generate", disabled with the reason beside it (a sign-in link when signed out), and a short
 * note once the job went to the jobs panel.
 */
export function GenerateBar({ cost, costTestId, blocker, phase, label = TOOL_TEXTS.generate, submitted = TOOL_TEXTS.submitted }: GenerateBarProps) {
  const { reason, signInLink } = blocker;
  return (
    <Stack gap={4}>
      {cost !== null && cost !== undefined && cost !== false && (
        <Text component="div" size="sm" aria-live="polite" data-testid={costTestId}>
          {cost}
        </Text>
      )}
      <Group gap="sm" align="center">
        {/* 44 px tall on phones (a thumb's target, issue 17); Mantine's 36 px from the tablet up. */}
        <Button
          type="submit"
          mih={{ base: 44, sm: 0 }}
          disabled={reason !== null || phase !== 'idle'}
          loading={phase === 'sending'}
          aria-describedby={reason ? 'generate-blocked-reason' : undefined}
        >
          {label}
        </Button>
        {phase === 'sent' && reason === null && (
          <Text size="sm" c="teal" role="status">
            {submitted}
          </Text>
        )}
        {reason && (
          <Text size="sm" c="dimmed" id="generate-blocked-reason">
            {signInLink ? (
              <Anchor component={Link} to={ROUTES.authentication}>
                {reason}
              </Anchor>
            ) : (
              reason
            )}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
