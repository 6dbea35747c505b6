import { Button, Group } from '@mantine/core';
import { useConfirm } from '@/components/confirm/use-confirm';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { selectCanDelete, selectDeleting } from '@/machines/batch/batch.selectors';
import { BatchActorContext } from '@/screens/albums/batch-context';

const TEXTS = ALBUM_TEXTS.album;

/** "Delete album", asked once more in a modal; a failure is the machine's toast. */
export function AlbumDelete() {
  const album = BatchActorContext.useActorRef();
  const canDelete = BatchActorContext.useSelector(selectCanDelete);
  const deleting = BatchActorContext.useSelector(selectDeleting);
  const confirm = useConfirm();
  return (
    <Group>
      <Button
        color="red"
        variant="light"
        loading={deleting}
        disabled={!canDelete}
        onClick={() =>
          confirm({
            title: TEXTS.deleteTitle,
            text: TEXTS.deleteText,
            cancel: TEXTS.deleteCancel,
            confirm: TEXTS.deleteConfirm,
            onConfirm: () => album.send({ type: 'batch.delete' }),
          })
        }
      >
        {TEXTS.deleteButton}
      </Button>
    </Group>
  );
}
