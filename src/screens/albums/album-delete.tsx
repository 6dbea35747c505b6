import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { selectCanDelete, selectDeleting } from '@/machines/batch/batch.selectors';
import { BatchActorContext } from '@/screens/albums/batch-context';

const TEXTS = ALBUM_TEXTS.album;

/** "Delete album", asked once more in a modal; a failure is the machine's toast. */
export function AlbumDelete() {
  const album = BatchActorContext.useActorRef();
  const canDelete = BatchActorContext.useSelector(selectCanDelete);
  const deleting = BatchActorContext.useSelector(selectDeleting);
  const [confirming, setConfirming] = useState(false);
  return (
    <Group>
      <Button color="red" variant="light" loading={deleting} disabled={!canDelete} onClick={() => setConfirming(true)}>
        {TEXTS.deleteButton}
      </Button>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={TEXTS.deleteTitle} centered>
        <Stack gap="md">
          <Text size="sm">{TEXTS.deleteText}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              {TEXTS.deleteCancel}
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirming(false);
                album.send({ type: 'batch.delete' });
              }}
            >
              {TEXTS.deleteConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
