import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useForm } from 'react-hook-form';
import type { ActorRefFrom } from 'xstate';
import { z } from 'zod';
import { MESSAGES } from '@/config/messages';
import type { emailVerificationMachine } from '@/machines/session/email-verification.machine';
import {
  selectCodeSentTo,
  selectVerificationBusy,
  selectVerificationOpen,
} from '@/machines/session/email-verification.selectors';

const codeSchema = z.object({ code: z.string().trim().min(1, 'Enter the code from the e-mail.') });
type CodeForm = z.infer<typeof codeSchema>;

const TEXT = MESSAGES.verifyEmail;

/**
 * SPEC §2.9 item 1: asks a signed-in user whose e-mail is not verified for the code. Verify sends
 * it (an empty code is refused here and by the machine), Resend asks for a new one, Cancel (or
 * Escape) closes it; the toasts come from the machine.
 */
export function VerifyEmailModal({ verification }: { verification: ActorRefFrom<typeof emailVerificationMachine> }) {
  const open = useSelector(verification, selectVerificationOpen);
  const busy = useSelector(verification, selectVerificationBusy);
  const sentTo = useSelector(verification, selectCodeSentTo);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CodeForm>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });

  const cancel = () => verification.send({ type: 'emailVerification.cancel' });
  const verify = handleSubmit(({ code }) => verification.send({ type: 'emailVerification.verify', code }));

  return (
    <Modal opened={open} onClose={cancel} title={TEXT.title} centered>
      <form onSubmit={(event) => void verify(event)} noValidate>
        <Stack gap="md">
          <Text>{TEXT.text}</Text>
          {sentTo && (
            <Text size="sm" c="dimmed">
              We sent the code to {sentTo}.
            </Text>
          )}
          <TextInput
            label="Confirmation code"
            placeholder={TEXT.codePlaceholder}
            autoComplete="one-time-code"
            inputMode="numeric"
            data-autofocus
            error={errors.code?.message}
            {...register('code')}
          />
          <Group justify="space-between">
            <Button
              variant="subtle"
              onClick={() => verification.send({ type: 'emailVerification.resend' })}
              disabled={busy}
            >
              {TEXT.resend}
            </Button>
            <Group gap="sm">
              <Button variant="default" onClick={cancel}>
                {TEXT.cancel}
              </Button>
              <Button type="submit" loading={busy}>
                {TEXT.verify}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
