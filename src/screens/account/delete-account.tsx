import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { SessionActorContext } from '@/components/session/session-context';
import { selectAccountBusy } from '@/machines/session/session.selectors';

const CONFIRMATION = 'DELETE';

/** Deleting the account for good, after the person types DELETE. */
export function DeleteAccount() {
  const session = SessionActorContext.useActorRef();
  const busy = SessionActorContext.useSelector(selectAccountBusy);
  const [typed, setTyped] = useState('');
  return (
    <section aria-labelledby="delete-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="delete-heading" c="red">
          Delete account
        </Title>
        <Text size="sm">
          This removes your account, your handle and your credits for good. It cannot be undone.
        </Text>
        <TextInput
          label={`Type ${CONFIRMATION} to confirm`}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
        />
        <Group justify="flex-end">
          <Button
            color="red"
            disabled={typed !== CONFIRMATION}
            loading={busy}
            onClick={() => session.send({ type: 'session.deleteAccount' })}
          >
            Delete my account
          </Button>
        </Group>
      </Stack>
    </section>
  );
}
