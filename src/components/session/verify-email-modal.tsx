import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useForm } from 'react-hook-form';
import type { ActorRefFrom } from 'xstate';
import { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import { MESSAGES } from '@/config/messages';
import type { emailVerificationMachine } from '@/machines/session/email-verification.machine';
import {
  selectCodeSentTo,
  selectVerificationBusy,
  selectVerificationOpen,
} from '@/machines/session/email-verification.selectors';
import { selectCurrentUser, type SessionSnapshot } from '@/machines/session/session.selectors';

const codeSchema = z.object({ code: z.string().trim().min(1, 'Enter the code from the e-mail.') });
type CodeForm = z.infer<typeof codeSchema>;

const TEXT = MESSAGES.verifyEmail;

const selectUserEmail = (snapshot: SessionSnapshot): string | null => selectCurrentUser(snapshot)?.attributes.email ?? null;

/** The address as Cognito shows it in its notices ("a***@e***.com"); null when it is not one. */
function maskEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (at < 1 || domain === '') return null;
  const dot = domain.lastIndexOf('.');
  return `${local[0]}***@${domain[0]}***${dot > 0 ? domain.slice(dot) : ''}`;
}

/**
 * SPEC §2.9 item 1: asks a signed-in user whose e-mail is not verified for the code. Verify sends
 * it (an empty code is refused here and by the machine), Resend asks for a new one, Cancel (or
 * Escape) closes it; the toasts come from the machine. Opening it sends nothing (Cognito sent a
 * code when the address changed), so a line under SPEC's text points to Resend.
 * `waiting`: a session modal is showing; this one stays closed until it is confirmed.
 */
export function VerifyEmailModal({
  verification,
  waiting = false,
}: {
  verification: ActorRefFrom<typeof emailVerificationMachine>;
  waiting?: boolean;
}) {
  const open = useSelector(verification, selectVerificationOpen);
  const email = SessionActorContext.useSelector(selectUserEmail);
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
    <Modal opened={open && !waiting} onClose={cancel} title={TEXT.title} centered>
      <form onSubmit={(event) => void verify(event)} noValidate>
        <Stack gap="md">
          <Text>{TEXT.text}</Text>
          <Text size="sm" c="dimmed">
            {sentTo
              ? `We sent the code to ${sentTo}.`
              : `No code yet? Press Resend and we send one to ${(email && maskEmail(email)) ?? 'your e-mail'}.`}
          </Text>
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
