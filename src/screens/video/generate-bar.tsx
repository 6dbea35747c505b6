import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { TOOL_TEXTS } from '@/config/job-texts';
import { ROUTES } from '@/config/routes';
import { VIDEO_TEXTS } from '@/config/video-texts';
import type { VideoCost } from '@/screens/video/video-creation-form';
import type { SendPhase } from '@/screens/video/use-hand-over';
import type { SubmitBlocker } from '@/components/session/use-submit-blocker';

interface GenerateBarProps {
  /** Null while no model is chosen. */
  cost: VideoCost | null;
  blocker: SubmitBlocker;
  phase: SendPhase;
}

/** The cost of the job ("2 videos × 20 credits = 40 credits"), the balance, and "Generate" or why not. */
export function GenerateBar({ cost, blocker, phase }: GenerateBarProps) {
  const { reason, signInLink, balance } = blocker;
  return (
    <Stack gap={4}>
      {cost && cost.videos > 0 && (
        <Group gap="xs">
          <Text size="sm" aria-live="polite" data-testid="video-cost">
            {VIDEO_TEXTS.cost(cost.videos, cost.perVideo)}
          </Text>
          {balance !== null && (
            <Text size="sm" c="dimmed">
              · {VIDEO_TEXTS.balance(balance)}
            </Text>
          )}
        </Group>
      )}
      <Group gap="sm" align="center">
        <Button
          type="submit"
          disabled={reason !== null || phase !== 'idle'}
          loading={phase === 'sending'}
          aria-describedby={reason ? 'generate-blocked-reason' : undefined}
        >
          {TOOL_TEXTS.generate}
        </Button>
        {phase === 'sent' && reason === null && (
          <Text size="sm" c="teal" role="status">
            {TOOL_TEXTS.submitted}
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
