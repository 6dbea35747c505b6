import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Divider, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import {
  selectAuthBusy,
  selectGuestSignInAvailable,
  selectPendingEmail,
} from '@/machines/session/session.selectors';
import { signInSchema } from '@/screens/authentication/auth-schemas';
import { AuthPanel } from '@/screens/authentication/auth-panel';
import { SocialButtons } from '@/screens/authentication/social-buttons';

type SignInValues = z.infer<typeof signInSchema>;

/** E-mail and password, the shared guest account, the social providers, and the ways onward. */
export function SignInForm() {
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  const guestAvailable = SessionActorContext.useSelector(selectGuestSignInAvailable);
  const pendingEmail = SessionActorContext.useSelector(selectPendingEmail);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: pendingEmail ?? '', password: '' },
  });
  const signIn = handleSubmit(({ email, password }) =>
    session.send({ type: 'session.signIn', username: email, password }),
  );

  return (
    <AuthPanel title="Sign in">
      <form onSubmit={(event) => void signIn(event)} noValidate>
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
