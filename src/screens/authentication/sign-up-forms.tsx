import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import { PASSWORD_MIN_LENGTH } from '@/config/limits';
import { selectAuthBusy, selectPendingEmail } from '@/machines/session/session.selectors';
import { codeSchema, signUpSchema } from '@/screens/authentication/auth-schemas';
import { AuthPanel } from '@/screens/authentication/auth-panel';

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
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  const pendingEmail = SessionActorContext.useSelector(selectPendingEmail);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof signUpSchema>>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { email: pendingEmail ?? '', password: '' },
  });
  const signUp = handleSubmit(({ email, password }) => session.send({ type: 'session.signUp', email, password }));

  return (
    <AuthPanel title="Create an account" intro="We will e-mail you a code to confirm the address.">
      <form onSubmit={(event) => void signUp(event)} noValidate>
        <Stack gap="sm">
          <TextInput label="E-mail" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
          <PasswordInput
            label="Password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters, any you like.`}
            autoComplete="new-password"
            error={errors.password?.message}
            {...register('password')}
          />
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
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  const pendingEmail = SessionActorContext.useSelector(selectPendingEmail);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof codeSchema>>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });
  const confirm = handleSubmit(({ code }) => session.send({ type: 'session.confirmSignUp', code }));

  return (
    <AuthPanel
      title="Confirm your e-mail"
      intro={pendingEmail ? `Enter the code we e-mailed to ${pendingEmail}.` : 'Enter the code we e-mailed to you.'}
    >
      <form onSubmit={(event) => void confirm(event)} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Confirmation code"
            autoComplete="one-time-code"
            inputMode="numeric"
            error={errors.code?.message}
            {...register('code')}
          />
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
