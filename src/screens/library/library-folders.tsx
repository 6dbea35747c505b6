import { Alert, Button, Group, Modal, NavLink, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { LIBRARY_FOLDER_NAME_MAX } from '@/config/library';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import type { libraryMachine } from '@/machines/library/library.machine';
import type { LibraryFolder } from '@/machines/library/library-folders.machine';
import {
  selectFolderBusy,
  selectFolderDialog,
  selectFolderError,
  selectFolders,
  selectFoldersLoadError,
  selectFoldersLoading,
  selectLibraryFilters,
  type LibraryFoldersRef,
} from '@/machines/library/library.selectors';

type LibraryRef = ActorRefFrom<typeof libraryMachine>;

/** A folder's name typed for a new folder or a rename; the server checks it again. */
function FolderNameForm({ folders, initial, submitLabel, onSubmit }: { folders: LibraryFoldersRef; initial: string; submitLabel: string; onSubmit: (name: string) => void }) {
  const [name, setName] = useState(initial);
  const busy = useSelector(folders, selectFolderBusy);
  const error = useSelector(folders, selectFolderError);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== '') onSubmit(name.trim());
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <TextInput
          label={LIBRARY_TEXTS.folderName}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={LIBRARY_FOLDER_NAME_MAX}
          required
          data-autofocus
          error={error ? `${LIBRARY_TEXTS.folderFailed} ${error}` : undefined}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={() => folders.send({ type: 'folders.closeDialog' })} disabled={busy}>
            {LIBRARY_TEXTS.cancel}
          </Button>
          <Button type="submit" loading={busy} disabled={name.trim() === ''}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The dialog the folders machine has open: a new folder, a rename, or a deletion to confirm. */
function FolderDialogs({ folders }: { folders: LibraryFoldersRef }) {
  const dialog = useSelector(folders, selectFolderDialog);
  const list = useSelector(folders, selectFolders);
  const busy = useSelector(folders, selectFolderBusy);
  const error = useSelector(folders, selectFolderError);
  const folder: LibraryFolder | undefined = dialog && dialog.type !== 'create' ? list.find((known) => known.id === dialog.folderId) : undefined;
  const close = () => folders.send({ type: 'folders.closeDialog' });
  const title =
    dialog?.type === 'create'
      ? LIBRARY_TEXTS.newFolder
      : dialog?.type === 'rename'
        ? LIBRARY_TEXTS.renameTitle(folder?.name ?? '')
        : LIBRARY_TEXTS.deleteTitle(folder?.name ?? '');
  return (
    <Modal opened={dialog !== null} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': LIBRARY_TEXTS.close }}>
      {dialog?.type === 'create' && (
        <FolderNameForm folders={folders} initial="" submitLabel={LIBRARY_TEXTS.create} onSubmit={(name) => folders.send({ type: 'folders.create', name })} />
      )}
      {dialog?.type === 'rename' && folder && (
        <FolderNameForm
          folders={folders}
          initial={folder.name}
          submitLabel={LIBRARY_TEXTS.save}
          onSubmit={(name) => folders.send({ type: 'folders.rename', folderId: folder.id, name })}
        />
      )}
      {dialog?.type === 'delete' && folder && (
        <Stack gap="sm">
          <Text>{LIBRARY_TEXTS.deleteBody}</Text>
          {error && (
            <Text c="red.8" size="sm" role="alert">
              {LIBRARY_TEXTS.folderFailed} {error}
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={busy}>
              {LIBRARY_TEXTS.cancel}
            </Button>
            <Button color="red" loading={busy} onClick={() => folders.send({ type: 'folders.delete', folderId: folder.id })}>
              {LIBRARY_TEXTS.delete}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The folders beside the grid: all results, each folder with its count, a new folder; the viewed one's rename and delete. */
export function LibraryFolders({ library, folders }: { library: LibraryRef; folders: LibraryFoldersRef }) {
  const list = useSelector(folders, selectFolders);
  const loading = useSelector(folders, selectFoldersLoading);
  const loadError = useSelector(folders, selectFoldersLoadError);
  const dialog = useSelector(folders, selectFolderDialog);
  const error = useSelector(folders, selectFolderError);
  const viewed = useSelector(library, selectLibraryFilters).folderId;
  const open = (folderId: string | null) => library.send({ type: 'library.folder', folderId });
  return (
    <Stack gap="xs" component="nav" aria-label={LIBRARY_TEXTS.foldersHeading}>
      <Title order={2} size="h4">
        {LIBRARY_TEXTS.foldersHeading}
      </Title>
      <NavLink component="button" label={LIBRARY_TEXTS.allResults} active={viewed === null} aria-current={viewed === null ? 'true' : undefined} onClick={() => open(null)} />
      {loading && <Skeleton height={32} radius="sm" aria-hidden="true" />}
      {loadError && (
        <Alert color="red" role="alert" p="xs">
          <Stack gap={4} align="flex-start">
            <Text size="sm">
              {LIBRARY_TEXTS.foldersFailed} {loadError}
            </Text>
            <Button size="compact-xs" variant="default" onClick={() => folders.send({ type: 'folders.retry' })}>
              {LIBRARY_TEXTS.retry}
            </Button>
          </Stack>
        </Alert>
      )}
      {list.map((folder) => (
        <NavLink
          key={folder.id}
          component="button"
          label={folder.name}
          description={LIBRARY_TEXTS.folderCount(folder.item_count)}
          active={viewed === folder.id}
          aria-current={viewed === folder.id ? 'true' : undefined}
          onClick={() => open(folder.id)}
        />
      ))}
      <Button variant="light" size="xs" onClick={() => folders.send({ type: 'folders.openCreate' })}>
        {LIBRARY_TEXTS.newFolder}
      </Button>
      {/* A failed add or remove (no dialog open) says so here. */}
      {error && dialog === null && (
        <Alert color="red" role="alert" p="xs" withCloseButton closeButtonLabel={LIBRARY_TEXTS.dismiss} onClose={() => folders.send({ type: 'folders.dismissError' })}>
          <Text size="sm">
            {LIBRARY_TEXTS.folderFailed} {error}
          </Text>
        </Alert>
      )}
      <FolderDialogs folders={folders} />
    </Stack>
  );
}

/** Above the grid in a folder view: its name, Rename and Delete folder. */
export function FolderHeader({ library, folders }: { library: LibraryRef; folders: LibraryFoldersRef }) {
  const viewed = useSelector(library, selectLibraryFilters).folderId;
  const folder = useSelector(folders, selectFolders).find((known) => known.id === viewed);
  const busy = useSelector(folders, selectFolderBusy);
  if (!folder) return null;
  return (
    <Group justify="space-between" gap="xs">
      <Title order={2} size="h3">
        {LIBRARY_TEXTS.folderView(folder.name)}
      </Title>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={busy} onClick={() => folders.send({ type: 'folders.openRename', folderId: folder.id })}>
          {LIBRARY_TEXTS.rename}
        </Button>
        <Button size="xs" variant="default" color="red" disabled={busy} onClick={() => folders.send({ type: 'folders.openDelete', folderId: folder.id })}>
          {LIBRARY_TEXTS.deleteFolder}
        </Button>
      </Group>
    </Group>
  );
}
