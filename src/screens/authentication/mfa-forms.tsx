import { Button, Group, Stack } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { SessionActorContext } from '@/components/session/session-context';
import {
  selectAuthBusy,
  selectAuthNotice,
  selectMfaMethod,
  selectMfaOptions,
} from '@/machines/session/session.selectors';
import { codeSchema } from '@/screens/authentication/auth-schemas';
import { CodeInput } from '@/screens/authentication/auth-fields';
import { AuthPanel } from '@/screens/authentication/auth-panel';
import { useSessionForm } from '@/screens/use-session-form';

const METHOD_LABELS = { SMS: 'Text message (SMS)', TOTP: 'Authenticator app (TOTP)' } as const;

/** Back to the sign-in form; not while a request runs, whose answer would then land nowhere. */
export function CancelSignIn() {
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  return (
    <Button variant="subtle" disabled={busy} onClick={() => session.send({ type: 'session.cancelSignIn' })}>
      Cancel
    </Button>
  );
}

/** The pool lets the person choose how the sign-in code reaches them. */
export function MfaSelectionForm() {
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAuthBusy);
  const options = SessionActorContext.useSelector(selectMfaOptions, shallowEqual);
  return (
    <AuthPanel title="Choose how to get your sign-in code">
      <Stack gap="sm">
        {options.map((method) => (
          <Button
            key={method}
            variant="default"
            loading={busy}
            onClick={() => session.send({ type: 'session.selectMfa', method })}
          >
            {METHOD_LABELS[method]}
          </Button>
        ))}
        <Group justify="flex-end">
          <CancelSignIn />
        </Group>
      </Stack>
    </AuthPanel>
  );
}

/** The second factor: a code by text message or from an authenticator app. */
export function MfaCodeForm() {
  const method = SessionActorContext.useSelector(selectMfaMethod);
  // The session's notice already says where the code went; the intro only stands in for it.
  const notice = SessionActorContext.useSelector(selectAuthNotice);
  const { busy, register, errors, onSubmit } = useSessionForm({
    schema: codeSchema,
    defaultValues: { code: '' },
    toEvent: ({ code }) => ({ type: 'session.confirmSignIn', code }),
  });

  return (
    <AuthPanel
      title="Enter your sign-in code"
      intro={
        notice
          ? undefined
          : method === 'TOTP'
            ? 'Open your authenticator app and enter the code it shows for Kinora.'
            : 'We sent a code to your phone by text message.'
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <CodeInput label="Code" error={errors.code?.message} {...register('code')} />
          <Group justify="space-between">
            <CancelSignIn />
            <Button type="submit" loading={busy}>
              Verify
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthPanel>
  );
}
