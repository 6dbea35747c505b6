import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import { selectHandle, selectHandleStatus, type SessionSnapshot } from '@/machines/session/session.selectors';
import { HANDLE_PATTERN, HANDLE_RULE } from '@/config/handle';
import { useSessionForm } from '@/screens/use-session-form';

const handleSchema = z.object({ handle: z.string().trim().regex(HANDLE_PATTERN, HANDLE_RULE) });

/** The handle is being checked or saved. */
const selectHandleBusy = (snapshot: SessionSnapshot): boolean => selectHandleStatus(snapshot) !== 'idle';

/**
 * The public handle: shown at /@handle. The session checks that it is free, saves it and moves to
 * the profile; a taken handle gets the toast of SPEC §8.
 */
export function HandleForm() {
  const current = SessionActorContext.useSelector(selectHandle);
  const { busy, register, errors, onSubmit } = useSessionForm({
    schema: handleSchema,
    values: { handle: current ?? '' },
    busy: selectHandleBusy,
    toEvent: ({ handle }) => ({ type: 'session.setHandle', handle }),
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="handle-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="handle-heading">
          Your handle
        </Title>
        <TextInput
          label="Handle"
          description={current ? `Your profile is at /@${current}. ${HANDLE_RULE}` : `Choose a handle for your public profile. ${HANDLE_RULE}`}
          leftSection="@"
          autoComplete="username"
          error={errors.handle?.message}
          {...register('handle')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            Save handle
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
