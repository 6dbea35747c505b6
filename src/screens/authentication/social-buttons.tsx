import { Button, Stack, Text } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { SessionActorContext } from '@/components/session/session-context';
import { selectAuthBusy, selectSocialProviders } from '@/machines/session/session.selectors';

/**
 * SPEC §1: the three social sign-ins through the pool's hosted UI. A provider the pool does not
 * have (as with the local emulator) stays visible but disabled, with the reason beside it.
 */
export function SocialButtons() {
  const session = SessionActorContext.useActorRef();
  const providers = SessionActorContext.useSelector(selectSocialProviders, shallowEqual);
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  const unavailable = providers.some(({ available }) => !available);
  return (
    <Stack gap="xs">
      {providers.map(({ provider, available }) => (
        <Button
          key={provider}
          variant="default"
          disabled={!available || busy}
          aria-describedby={available ? undefined : 'social-unavailable'}
          onClick={() => session.send({ type: 'session.signInWithProvider', provider })}
        >
          Continue with {provider}
        </Button>
      ))}
      {unavailable && (
        <Text id="social-unavailable" size="sm" c="dimmed">
          {providers.every(({ available }) => !available)
            ? 'Social sign-in: not set up on this server.'
            : `Not set up on this server: ${providers
                .filter(({ available }) => !available)
                .map(({ provider }) => provider)
                .join(', ')}.`}
        </Text>
      )}
    </Stack>
  );
}
