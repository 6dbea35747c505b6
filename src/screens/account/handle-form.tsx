import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import { selectHandle, selectHandleStatus } from '@/machines/session/session.selectors';
import { HANDLE_PATTERN, HANDLE_RULE } from '@/config/handle';

const handleSchema = z.object({ handle: z.string().trim().regex(HANDLE_PATTERN, HANDLE_RULE) });

/**
 * The public handle: shown at /@handle. The session checks that it is free, saves it and moves to
 * the profile; a taken handle gets the toast of SPEC §8.
 */
export function HandleForm() {
  const session = SessionActorContext.useActorRef();
  const current = SessionActorContext.useSelector(selectHandle);
  const status = SessionActorContext.useSelector(selectHandleStatus);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof handleSchema>>({
    resolver: zodResolver(handleSchema),
    values: { handle: current ?? '' },
  });
  const save = handleSubmit(({ handle }) => session.send({ type: 'session.setHandle', handle }));

  return (
    <form onSubmit={(event) => void save(event)} noValidate aria-labelledby="handle-heading">
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
          <Button type="submit" loading={status !== 'idle'}>
            Save handle
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
