import { Anchor, Badge, Box, Button, Checkbox, Group, Paper, Popover, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { Link } from 'react-router-dom';
import { LightboxTrigger, lightboxPictureId } from '@/components/media/result-lightbox';
import type { ShownResult } from '@/components/media/media-result-card';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import { ROUTES } from '@/config/routes';
import { formatDateTime } from '@/lib/format';
import { inspect } from '@/lib/inspection/hub';
import type { LibraryItem } from '@/machines/library/library.machine';
import {
  selectCanChangeFolders,
  selectFolders,
  selectMembershipPending,
  type LibraryFoldersRef,
} from '@/machines/library/library.selectors';
import { resultFileMachine } from '@/machines/result-file/result-file.machine';
import { selectBroken, selectFileUrl, selectThumbnailUrl } from '@/machines/result-file/result-file.selectors';
import { cardNameOf, filesOf, promptOf, toolTitleOf, type LibraryCardEntry } from '@/screens/library/library-view';

const PREVIEW_HEIGHT = 200;

type ResultFileRef = ActorRefFrom<typeof resultFileMachine>;

/** The card's picture, video or sound; a signed link that fails to load is replaced (resultFile machine). */
function Preview({ item, file, label, name }: { item: LibraryItem; file: ResultFileRef; label: string; name: string }) {
  const url = useSelector(file, selectFileUrl);
  const thumbnailUrl = useSelector(file, selectThumbnailUrl);
  const broken = useSelector(file, selectBroken);
  const failed = () => file.send({ type: 'file.failed' });
  if (broken) {
    return (
      <Text size="sm" c="red.8" role="alert" h={PREVIEW_HEIGHT}>
        {LIBRARY_TEXTS.fileNotLoaded}
      </Text>
    );
  }
  if (item.kind === 'image') {
    return (
      <LightboxTrigger id={lightboxPictureId(item.id, label)} label={label} href={url}>
        <img
          src={thumbnailUrl ?? url}
          alt={name}
          loading="lazy"
          onError={failed}
          style={{ width: '100%', height: PREVIEW_HEIGHT, objectFit: 'cover', borderRadius: 6, display: 'block' }}
        />
      </LightboxTrigger>
    );
  }
  if (item.kind === 'video') {
    return (
      <video
        controls
        preload="none"
        src={url}
        poster={thumbnailUrl ?? undefined}
        aria-label={name}
        onError={failed}
        style={{ width: '100%', height: PREVIEW_HEIGHT, borderRadius: 6, background: 'black', display: 'block' }}
      />
    );
  }
  // Sound: a plain card with the player (no waveform).
  return (
    <Stack justify="center" h={PREVIEW_HEIGHT} p="sm" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 6 }}>
      <Text size="xl" ta="center" aria-hidden="true">
        ♪
      </Text>
      <audio controls preload="none" src={url} aria-label={name} onError={failed} style={{ width: '100%' }} />
    </Stack>
  );
}

/** Download: the file's link as fresh as the preview's (a link that failed is replaced for both). */
function DownloadButton({ file, name }: { file: ResultFileRef; name: string }) {
  const url = useSelector(file, selectFileUrl);
  return (
    <Button component="a" href={url} download size="compact-sm" variant="light" aria-label={LIBRARY_TEXTS.downloadLabel(name)}>
      {LIBRARY_TEXTS.download}
    </Button>
  );
}

/** The result's first file: its preview and its Download, sharing one resultFile actor. */
function CoverAndDownload({ item, cover, name, children }: { item: LibraryItem; cover: ShownResult; name: string; children: (download: ReactNode) => ReactNode }) {
  const file = useActorRef(resultFileMachine, {
    inspect,
    input: { mediaId: item.id, itemIndex: cover.itemIndex, url: cover.url, thumbnailUrl: cover.thumbnailUrl },
  });
  return (
    <>
      <Preview item={item} file={file} label={cover.label} name={name} />
      {children(<DownloadButton file={file} name={name} />)}
    </>
  );
}

/** "Folders": a checkbox per folder, checked for those the result is in; a change is one call. */
function FolderChoice({ item, folders, name, pictures }: { item: LibraryItem; folders: LibraryFoldersRef; name: string; pictures: number }) {
  const list = useSelector(folders, selectFolders);
  const canChange = useSelector(folders, selectCanChangeFolders);
  const pending = useSelector(folders, selectMembershipPending);
  return (
    <Popover position="bottom-end" withinPortal trapFocus shadow="md">
      <Popover.Target>
        <Button size="compact-sm" variant="default" aria-label={LIBRARY_TEXTS.foldersOf(name)}>
          {LIBRARY_TEXTS.folders}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {pictures > 1 && list.length > 0 && (
          <Text size="xs" c="dimmed" maw={220} mb="xs">
            {LIBRARY_TEXTS.runFolders(pictures)}
          </Text>
        )}
        {list.length === 0 ? (
          <Text size="sm" maw={220}>
            {LIBRARY_TEXTS.noFoldersYet}
          </Text>
        ) : (
          <Stack gap="xs" role="group" aria-label={LIBRARY_TEXTS.foldersOf(name)}>
            {list.map((folder) => {
              const inside = item.folder_ids.includes(folder.id);
              const busy = pending?.folderId === folder.id && pending.mediaId === item.id;
              return (
                <Checkbox
                  key={folder.id}
                  label={folder.name}
                  checked={inside}
                  disabled={!canChange}
                  aria-busy={busy || undefined}
                  onChange={() =>
                    folders.send({ type: inside ? 'folders.remove' : 'folders.add', folderId: folder.id, mediaId: item.id })
                  }
                />
              );
            })}
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

interface CardDetailsProps {
  entry: LibraryCardEntry;
  name: string;
  folders: LibraryFoldersRef | null;
  download: ReactNode;
}

/** What made the result (a run's picture: which one, and its seed), when, its folders, and its actions. */
function CardDetails({ entry, name, folders, download }: CardDetailsProps) {
  const { item, index, count } = entry;
  const prompt = promptOf(item);
  const files = count > 1 ? 0 : filesOf(item).length;
  const seed = entry.file?.seed ?? null;
  return (
    <>
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Text size="sm" fw={600} truncate="end">
          {toolTitleOf(item)}
        </Text>
        {count > 1 && (
          <Badge size="sm" variant="light" style={{ flexShrink: 0, textTransform: 'none' }}>
            {LIBRARY_TEXTS.pictureOf(index, count)}
          </Badge>
        )}
        {files > 1 && (
          <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
            {LIBRARY_TEXTS.moreFiles(files)}
          </Badge>
        )}
      </Group>
      <Text size="sm" lineClamp={2} title={prompt ?? undefined} c={prompt ? undefined : 'dimmed'}>
        {prompt ?? LIBRARY_TEXTS.untitled}
      </Text>
      <Group justify="space-between" gap={4}>
        <Text size="xs" c="dimmed">
          {formatDateTime(item.created_at)}
          {seed !== null && ` · ${LIBRARY_TEXTS.seed(seed)}`}
        </Text>
        {item.folder_ids.length > 0 && (
          <Text size="xs" c="dimmed">
            {LIBRARY_TEXTS.inFolders(item.folder_ids.length)}
          </Text>
        )}
      </Group>
      <Group gap={6}>
        {download}
        <Anchor component={Link} to={ROUTES.historyJob(item.id)} size="sm" aria-label={LIBRARY_TEXTS.showInHistoryLabel(name)}>
          {LIBRARY_TEXTS.showInHistory}
        </Anchor>
        {folders && <FolderChoice item={item} folders={folders} name={name} pictures={count} />}
      </Group>
    </>
  );
}

interface LibraryCardProps {
  /** The result, or one picture of a run of several, with the file it shows. */
  entry: LibraryCardEntry;
  /** `?item=` named it: brought into view, focused and outlined. */
  focused: boolean;
  /** The folders child; null for the guest (no folders). */
  folders: LibraryFoldersRef | null;
}

/** One finished result (or one picture of a run): its preview (opening the lightbox for a picture), what made it, and its actions. */
export function LibraryCard({ entry, focused, folders }: LibraryCardProps) {
  const ref = useRef<HTMLElement>(null);
  const { item } = entry;
  const name = cardNameOf(item, entry);
  const cover = entry.file;
  useEffect(() => {
    if (!focused) return;
    ref.current?.scrollIntoView({ block: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [focused]);
  return (
    <Paper
      ref={ref}
      component="article"
      aria-label={name}
      aria-current={focused ? 'true' : undefined}
      tabIndex={focused ? -1 : undefined}
      withBorder
      radius="md"
      p="sm"
      style={focused ? { outline: '3px solid var(--mantine-color-blue-6)', outlineOffset: 2 } : undefined}
    >
      <Stack gap="xs">
        {cover ? (
          <CoverAndDownload item={item} cover={cover} name={name}>
            {(download) => <CardDetails entry={entry} name={name} folders={folders} download={download} />}
          </CoverAndDownload>
        ) : (
          <>
            <Box h={PREVIEW_HEIGHT} />
            <CardDetails entry={entry} name={name} folders={folders} download={null} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
