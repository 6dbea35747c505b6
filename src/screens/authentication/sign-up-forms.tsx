import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { SessionActorContext } from '@/components/session/session-context';
import { selectPendingEmail } from '@/machines/session/session.selectors';
import { codeSchema, signUpSchema } from '@/screens/authentication/auth-schemas';
import { CodeInput, NewPasswordInput } from '@/screens/authentication/auth-fields';
import { AuthPanel } from '@/screens/authentication/auth-panel';
import { useSessionForm } from '@/screens/use-session-form';

export function BackToSignIn() {
  const session = SessionActorContext.useActorRef();
  return (
    <Anchor component="button" type="button" size="sm" onClick={() => session.send({ type: 'session.showSignIn' })}>
      Back to sign in
    </Anchor>
  );
}

/** A new account: the e-mail address is the pool username; SPEC §5's password rule. */
export function SignUpForm() {
  const pendingEmail = SessionActorContext.useSelector(selectPendingEmail);
  const { busy, register, errors, onSubmit } = useSessionForm({
    schema: signUpSchema,
    defaultValues: { email: pendingEmail ?? '', password: '' },
    toEvent: ({ email, password }) => ({ type: 'session.signUp', email, password }),
  });

  return (
    <AuthPanel title="Create an account" intro="We will e-mail you a code to confirm the address.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label="E-mail" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
          <NewPasswordInput label="Password" error={errors.password?.message} {...register('password')} />
          <Group justify="space-between">
            <BackToSignIn />
            <Button type="submit" loading={busy}>
              Create account
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthPanel>
  );
}

/** The code the pool e-mailed after sign-up; a new one on request. */
export function ConfirmSignUpForm() {
  const pendingEmail = SessionActorContext.useSelector(selectPendingEmail);
  const { session, busy, register, errors, onSubmit } = useSessionForm({
    schema: codeSchema,
    defaultValues: { code: '' },
    toEvent: ({ code }) => ({ type: 'session.confirmSignUp', code }),
  });

  return (
    <AuthPanel
      title="Confirm your e-mail"
      intro={pendingEmail ? `Enter the code we e-mailed to ${pendingEmail}.` : 'Enter the code we e-mailed to you.'}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <CodeInput label="Confirmation code" error={errors.code?.message} {...register('code')} />
          <Group justify="space-between">
            <Button variant="subtle" disabled={busy} onClick={() => session.send({ type: 'session.resendSignUpCode' })}>
              Send a new code
            </Button>
            <Button type="submit" loading={busy}>
              Confirm
            </Button>
          </Group>
          <BackToSignIn />
        </Stack>
      </form>
    </AuthPanel>
  );
}
