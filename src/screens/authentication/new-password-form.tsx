import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import { PASSWORD_MIN_LENGTH } from '@/config/limits';
import { selectAuthBusy } from '@/machines/session/session.selectors';
import { newPasswordSchema } from '@/screens/authentication/auth-schemas';
import { AuthPanel } from '@/screens/authentication/auth-panel';

/** The pool asks for a new password (an account created for the person) before signing in. */
export function NewPasswordForm() {
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof newPasswordSchema>>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '' },
  });
  const save = handleSubmit(({ password }) => session.send({ type: 'session.setNewPassword', password }));

  return (
    <AuthPanel title="Choose a new password" intro="Your account needs a new password before you can sign in.">
      <form onSubmit={(event) => void save(event)} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label="New password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters, any you like.`}
            autoComplete="new-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <Group justify="space-between">
            <Button variant="subtle" onClick={() => session.send({ type: 'session.cancelSignIn' })}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Set password
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthPanel>
  );
}
