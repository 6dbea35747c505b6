import { Button, Group, Stack } from '@mantine/core';
import { newPasswordSchema } from '@/screens/authentication/auth-schemas';
import { NewPasswordInput } from '@/screens/authentication/auth-fields';
import { AuthPanel } from '@/screens/authentication/auth-panel';
import { CancelSignIn } from '@/screens/authentication/mfa-forms';
import { useSessionForm } from '@/screens/use-session-form';

/** The pool asks for a new password (an account created for the person) before signing in. */
export function NewPasswordForm() {
  const { busy, register, errors, onSubmit } = useSessionForm({
    schema: newPasswordSchema,
    defaultValues: { password: '' },
    toEvent: ({ password }) => ({ type: 'session.setNewPassword', password }),
  });

  return (
    <AuthPanel title="Choose a new password" intro="Your account needs a new password before you can sign in.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <NewPasswordInput label="New password" error={errors.password?.message} {...register('password')} />
          <Group justify="space-between">
            <CancelSignIn />
            <Button type="submit" loading={busy}>
              Set password
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthPanel>
  );
}
