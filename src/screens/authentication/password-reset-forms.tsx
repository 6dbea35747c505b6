import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import { PASSWORD_MIN_LENGTH } from '@/config/limits';
import { selectAuthBusy, selectPendingEmail } from '@/machines/session/session.selectors';
import { emailSchema, resetPasswordSchema } from '@/screens/authentication/auth-schemas';
import { AuthPanel } from '@/screens/authentication/auth-panel';
import { BackToSignIn } from '@/screens/authentication/sign-up-forms';

/** Step 1 of a forgotten password: where to send the code. */
export function ForgotPasswordForm() {
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  const pendingEmail = SessionActorContext.useSelector(selectPendingEmail);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof emailSchema>>({
    resolver: zodResolver(emailSchema),
    defaultValues: { email: pendingEmail ?? '' },
  });
  const send = handleSubmit(({ email }) => session.send({ type: 'session.requestPasswordReset', email }));

  return (
    <AuthPanel title="Reset your password" intro="We will e-mail you a code to set a new password.">
      <form onSubmit={(event) => void send(event)} noValidate>
        <Stack gap="sm">
          <TextInput label="E-mail" type="email" autoComplete="username" error={errors.email?.message} {...register('email')} />
          <Group justify="space-between">
            <BackToSignIn />
            <Button type="submit" loading={busy}>
              Send code
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthPanel>
  );
}

/** Step 2: the e-mailed code and the new password. */
export function ResetPasswordForm() {
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof resetPasswordSchema>>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { code: '', newPassword: '' },
  });
  const reset = handleSubmit(({ code, newPassword }) =>
    session.send({ type: 'session.confirmPasswordReset', code, newPassword }),
  );

  return (
    <AuthPanel title="Reset your password">
      <form onSubmit={(event) => void reset(event)} noValidate>
        <Stack gap="sm">
          <TextInput label="Code" autoComplete="one-time-code" inputMode="numeric" error={errors.code?.message} {...register('code')} />
          <PasswordInput
            label="New password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters, any you like.`}
            autoComplete="new-password"
            error={errors.newPassword?.message}
            {...register('newPassword')}
          />
          <Group justify="space-between">
            <BackToSignIn />
            <Button type="submit" loading={busy}>
              Set new password
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthPanel>
  );
}
