import { Anchor, Button, Divider, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { SessionActorContext } from '@/components/session/session-context';
import { selectGuestSignInAvailable, selectPendingEmail } from '@/machines/session/session.selectors';
import { signInSchema } from '@/screens/authentication/auth-schemas';
import { AuthPanel } from '@/screens/authentication/auth-panel';
import { SocialButtons } from '@/screens/authentication/social-buttons';
import { useSessionForm } from '@/screens/use-session-form';

/** E-mail and password, the shared guest account, the social providers, and the ways onward. */
export function SignInForm() {
  const guestAvailable = SessionActorContext.useSelector(selectGuestSignInAvailable);
  const pendingEmail = SessionActorContext.useSelector(selectPendingEmail);
  const { session, busy, register, errors, onSubmit } = useSessionForm({
    schema: signInSchema,
    defaultValues: { email: pendingEmail ?? '', password: '' },
    toEvent: ({ email, password }) => ({ type: 'session.signIn', username: email, password }),
  });

  return (
    <AuthPanel title="Sign in">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label="E-mail" type="email" autoComplete="username" error={errors.email?.message} {...register('email')} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={() => session.send({ type: 'session.showForgotPassword' })}>
              Forgot password?
            </Anchor>
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </Group>
        </Stack>
      </form>
      <Text size="sm">
        New to Kinora?{' '}
        <Anchor component="button" type="button" size="sm" onClick={() => session.send({ type: 'session.showSignUp' })}>
          Create an account
        </Anchor>
      </Text>
      <Divider label="or" labelPosition="center" />
      <Stack gap="xs">
        <Button
          variant="light"
          disabled={!guestAvailable || busy}
          aria-describedby={guestAvailable ? undefined : 'guest-unavailable'}
          onClick={() => session.send({ type: 'session.signInAsGuest' })}
        >
          Continue as guest
        </Button>
        {!guestAvailable && (
          <Text id="guest-unavailable" size="sm" c="dimmed">
            Guest sign-in: not set up on this server.
          </Text>
        )}
      </Stack>
      <SocialButtons />
    </AuthPanel>
  );
}
