import { Button, Group, Stack, TextInput } from '@mantine/core';
import { SessionActorContext } from '@/components/session/session-context';
import { selectPendingEmail } from '@/machines/session/session.selectors';
import { emailSchema, resetPasswordSchema } from '@/screens/authentication/auth-schemas';
import { CodeInput, NewPasswordInput } from '@/screens/authentication/auth-fields';
import { AuthPanel } from '@/screens/authentication/auth-panel';
import { BackToSignIn } from '@/screens/authentication/sign-up-forms';
import { useSessionForm } from '@/screens/use-session-form';

/** Step 1 of a forgotten password: where to send the code. */
export function ForgotPasswordForm() {
  const pendingEmail = SessionActorContext.useSelector(selectPendingEmail);
  const { busy, register, errors, onSubmit } = useSessionForm({
    schema: emailSchema,
    defaultValues: { email: pendingEmail ?? '' },
    toEvent: ({ email }) => ({ type: 'session.requestPasswordReset', email }),
  });

  return (
    <AuthPanel title="Reset your password" intro="We will e-mail you a code to set a new password.">
      <form onSubmit={onSubmit} noValidate>
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
  const { busy, register, errors, onSubmit } = useSessionForm({
    schema: resetPasswordSchema,
    defaultValues: { code: '', newPassword: '' },
    toEvent: ({ code, newPassword }) => ({ type: 'session.confirmPasswordReset', code, newPassword }),
  });

  return (
    <AuthPanel title="Reset your password">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <CodeInput label="Code" error={errors.code?.message} {...register('code')} />
          <NewPasswordInput label="New password" error={errors.newPassword?.message} {...register('newPassword')} />
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
