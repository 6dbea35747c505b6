import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Container, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import { CONTACT_EMAIL_MAX, CONTACT_MESSAGE_MAX, CONTACT_MESSAGE_MIN, CONTACT_NAME_MAX } from '@/config/contact';
import { CONTACT_TEXTS } from '@/config/contact-texts';
import { supportEmail } from '@/config/support';
import { contactMachine } from '@/machines/contact/contact.machine';
import { selectContactError, selectContactSentTo, selectContactStatus } from '@/machines/contact/contact.selectors';
import { selectCurrentUser, selectIsGuest, type SessionSnapshot } from '@/machines/session/session.selectors';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = CONTACT_TEXTS;

const contactSchema = z.object({
  name: z.string().trim().min(1, TEXTS.nameRequired).max(CONTACT_NAME_MAX, TEXTS.nameTooLong),
  email: z.string().trim().max(CONTACT_EMAIL_MAX, TEXTS.emailTooLong).pipe(z.email(TEXTS.emailInvalid)),
  message: z.string().trim().min(CONTACT_MESSAGE_MIN, TEXTS.messageTooShort).max(CONTACT_MESSAGE_MAX, TEXTS.messageTooLong),
});
type ContactValues = z.infer<typeof contactSchema>;

/** The signed-in person's e-mail to prefill (not the shared guest account's). */
const selectPrefillEmail = (snapshot: SessionSnapshot): string => {
  if (selectIsGuest(snapshot)) return '';
  return selectCurrentUser(snapshot)?.attributes.email ?? '';
};

/** /contact-us: a message to the team (signed in or not), and the support address. */
export function ContactScreen() {
  const contact = useActorRef(contactMachine, { inspect });
  const status = useSelector(contact, selectContactStatus);
  const error = useSelector(contact, selectContactError);
  const sentTo = useSelector(contact, selectContactSentTo);
  const prefillEmail = SessionActorContext.useSelector(selectPrefillEmail);
  const headingId = useId();
  const support = supportEmail();
  const { register, handleSubmit, formState, watch, getValues, setValue, reset } = useForm<ContactValues>({
    resolver: zodResolver(contactSchema),
    defaultValues: { name: '', email: prefillEmail, message: '' },
  });
  const message = watch('message');

  // The session may finish loading after the page: fill the e-mail unless the person typed one.
  useEffect(() => {
    if (prefillEmail && getValues('email') === '') setValue('email', prefillEmail);
  }, [prefillEmail, getValues, setValue]);

  const submit = handleSubmit((values) =>
    contact.send({ type: 'contact.send', message: { name: values.name.trim(), email: values.email.trim(), message: values.message.trim() } }),
  );

  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>{TEXTS.title}</Title>
        <Text c="dimmed">{TEXTS.intro}</Text>
        <Text>
          {TEXTS.orEmail} <Anchor href={`mailto:${support}`}>{support}</Anchor>.
        </Text>
        {status === 'sent' ? (
          <Alert color="teal" title={TEXTS.sentTitle} role="status">
            <Stack gap="sm">
              <Text size="sm">{TEXTS.sent(sentTo ?? '')}</Text>
              <Group>
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => {
                    reset({ name: getValues('name'), email: getValues('email'), message: '' });
                    contact.send({ type: 'contact.again' });
                  }}
                >
                  {TEXTS.another}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Paper
            withBorder
            p="lg"
            radius="md"
            component="form"
            noValidate
            aria-labelledby={headingId}
            onSubmit={(event) => {
              event.preventDefault();
              if (status !== 'sending') void submit(event);
            }}
          >
            <Stack gap="md">
              <Title order={2} size="h3" id={headingId}>
                {TEXTS.title}
              </Title>
              <TextInput label={TEXTS.name} required autoComplete="name" maxLength={CONTACT_NAME_MAX} error={formState.errors.name?.message} {...register('name')} />
              <TextInput
                label={TEXTS.email}
                type="email"
                required
                autoComplete="email"
                maxLength={CONTACT_EMAIL_MAX}
                error={formState.errors.email?.message}
                {...register('email')}
              />
              <Stack gap={4}>
                <Textarea
                  label={TEXTS.message}
                  required
                  rows={6}
                  error={formState.errors.message?.message}
                  {...register('message')}
                />
                <Text size="xs" c={message.length > CONTACT_MESSAGE_MAX ? 'red' : 'dimmed'} aria-live="polite">
                  {TEXTS.counter(message.length)}
                </Text>
              </Stack>
              {error && (
                <Alert color="red" title={TEXTS.failedTitle} role="alert">
                  {error}
                </Alert>
              )}
              <Group justify="flex-end">
                <Button type="submit" loading={status === 'sending'}>
                  {TEXTS.submit}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
