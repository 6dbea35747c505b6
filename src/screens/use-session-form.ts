import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEvent } from 'react';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { EventFrom } from 'xstate';
import type { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import type { sessionMachine } from '@/machines/session/session.machine';
import { selectAuthBusy, type SessionSnapshot } from '@/machines/session/session.selectors';

type SessionEvent = EventFrom<typeof sessionMachine>;

interface SessionFormOptions<TValues extends FieldValues> {
  /** Checked before anything is sent: a form the schema refuses shows its messages and sends nothing. */
  schema: z.ZodType<TValues, TValues>;
  defaultValues?: DefaultValues<TValues>;
  /** Values that follow the session (the form resets when they change), instead of defaultValues. */
  values?: TValues;
  /** Whether the session is working on this form's request; a selector defined outside components. */
  busy?: (snapshot: SessionSnapshot) => boolean;
  /** The event the valid values send to the session. */
  toEvent: (values: TValues) => SessionEvent;
}

/**
 * The setup every session form shares: react-hook-form with the zod schema, the session actor,
 * and whether a request is running (by default a sign-in, sign-up or reset: selectAuthBusy).
 * Spread `register(name)` on a field, show `errors[name]?.message`, pass `onSubmit` to the form.
 */
export function useSessionForm<TValues extends FieldValues>({
  schema,
  defaultValues,
  values,
  busy: selectBusy = selectAuthBusy,
  toEvent,
}: SessionFormOptions<TValues>) {
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectBusy);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TValues>({ resolver: zodResolver(schema), defaultValues, values });
  const submit = handleSubmit((valid) => session.send(toEvent(valid)));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => void submit(event);
  return { session, busy, register, errors, onSubmit };
}
