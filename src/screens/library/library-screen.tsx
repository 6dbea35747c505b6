import { Alert, Button, Container, Grid, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Link, useSearchParams } from 'react-router-dom';
import { ResultLightboxProvider } from '@/components/media/result-lightbox';
import { SessionActorContext } from '@/components/session/session-context';
import { MEDIA_KINDS, type MediaKind } from '@/config/enums';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import { ROUTES } from '@/config/routes';
import { inspect } from '@/lib/inspection/hub';
import { selectSignInUndecided } from '@/machines/credits-page/credits-page.selectors';
import { libraryMachine } from '@/machines/library/library.machine';
import {
  selectFocusedId,
  selectFocusMissing,
  selectFoldersRef,
  selectIsSearching,
  selectLibraryError,
  selectLibraryFilters,
  selectLibraryHasMore,
  selectLibraryItems,
  selectLibraryLoadingMore,
  selectLibraryStatus,
} from '@/machines/library/library.selectors';
import { selectCurrentUserId, selectIsGuest, selectIsSignedIn } from '@/machines/session/session.selectors';
import { LibraryCard } from '@/screens/library/library-card';
import { FolderHeader, LibraryFolders } from '@/screens/library/library-folders';
import { libraryCardsOf, lightboxPicturesOf } from '@/screens/library/library-view';

type LibraryRef = ActorRefFrom<typeof libraryMachine>;

const KIND_CHOICES = [
  { value: 'all', label: LIBRARY_TEXTS.kinds.all },
  ...MEDIA_KINDS.map((kind) => ({ value: kind, label: LIBRARY_TEXTS.kinds[kind] })),
];
const isKind = (value: string): value is MediaKind => (MEDIA_KINDS as readonly string[]).includes(value);

/** The prompt search, the kind, and "Clear search". */
function LibrarySearchBar({ library }: { library: LibraryRef }) {
  const filters = useSelector(library, selectLibraryFilters);
  const searching = useSelector(library, selectIsSearching);
  return (
    <Group align="flex-end" gap="sm">
      <TextInput
        type="search"
        label={LIBRARY_TEXTS.search}
        placeholder={LIBRARY_TEXTS.searchPlaceholder}
        value={filters.q}
        onChange={(event) => library.send({ type: 'library.type', q: event.currentTarget.value })}
        style={{ flex: '1 1 240px' }}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="library-kind-label">
          {LIBRARY_TEXTS.kind}
        </Text>
        <SegmentedControl
          aria-labelledby="library-kind-label"
          data={KIND_CHOICES}
          value={filters.kind ?? 'all'}
          onChange={(value) => library.send({ type: 'library.kind', kind: isKind(value) ? value : null })}
        />
      </Stack>
      {searching && (
        <Button variant="subtle" onClick={() => library.send({ type: 'library.clear' })}>
          {LIBRARY_TEXTS.clear}
        </Button>
      )}
    </Group>
  );
}

/** The grid: loading placeholders, a failure with a retry, an empty state, or the results and "Load more". */
function LibraryGrid({ library }: { library: LibraryRef }) {
  const status = useSelector(library, selectLibraryStatus);
  const items = useSelector(library, selectLibraryItems);
  const hasMore = useSelector(library, selectLibraryHasMore);
  const loadingMore = useSelector(library, selectLibraryLoadingMore);
  const error = useSelector(library, selectLibraryError);
  const focusedId = useSelector(library, selectFocusedId);
  const folders = useSelector(library, selectFoldersRef);

  if (status === 'loading') {
    return (
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} role="status" aria-label={LIBRARY_TEXTS.loading} aria-busy="true">
        {[0, 1, 2].map((card) => (
          <Skeleton key={card} height={300} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  if (status === 'failed') {
    return (
      <Alert color="red" title={LIBRARY_TEXTS.failed} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{error}</Text>
          <Button variant="default" size="xs" onClick={() => library.send({ type: 'library.retry' })}>
            {LIBRARY_TEXTS.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (status !== 'ready') {
    return (
      <Stack gap={4} role="status">
        <Text fw={600}>{status === 'empty' ? LIBRARY_TEXTS.empty : status === 'empty-folder' ? LIBRARY_TEXTS.emptyFolder : LIBRARY_TEXTS.emptyFiltered}</Text>
        {status === 'empty-folder' && <Text c="dimmed">{LIBRARY_TEXTS.emptyFolderHint}</Text>}
        {status === 'empty' && (
          <Group gap="xs">
            <Button component={Link} to={ROUTES.aiImage.textToImage} size="xs" variant="light">
              {LIBRARY_TEXTS.makeSomething}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <ResultLightboxProvider pictures={lightboxPicturesOf(items)}>
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} role="list" aria-label={LIBRARY_TEXTS.gridLabel}>
          {libraryCardsOf(items).map((entry) => (
            <div role="listitem" key={entry.key}>
              {/* `?item=` outlines a run's first picture. */}
              <LibraryCard entry={entry} focused={entry.item.id === focusedId && entry.index === 1} folders={folders} />
            </div>
          ))}
        </SimpleGrid>
      </ResultLightboxProvider>
      {error && (
        <Text c="red" size="sm" role="alert">
          {LIBRARY_TEXTS.moreFailed} {error}
        </Text>
      )}
      {hasMore && (
        <Group justify="center">
          <Button variant="light" loading={loadingMore} onClick={() => library.send({ type: 'library.loadMore' })}>
            {error ? LIBRARY_TEXTS.retry : LIBRARY_TEXTS.loadMore}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** `?item=` named a result that is not in the Library. */
function FocusMissing({ library }: { library: LibraryRef }) {
  const missing = useSelector(library, selectFocusMissing);
  if (!missing) return null;
  return (
    <Alert color="yellow" role="status" withCloseButton closeButtonLabel={LIBRARY_TEXTS.dismiss} onClose={() => library.send({ type: 'library.dismissFocus' })}>
      {LIBRARY_TEXTS.itemMissing}
    </Alert>
  );
}

/** The signed-in person's Library: one machine per person (and per `?item=`), folders unless the guest. */
function Library({ focusId, guest }: { focusId: string | null; guest: boolean }) {
  const library = useActorRef(libraryMachine, { id: 'library', input: { focusId, folders: !guest }, inspect });
  const folders = useSelector(library, selectFoldersRef);
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 3 }}>
        {folders ? <LibraryFolders library={library} folders={folders} /> : <Text c="dimmed" size="sm">{LIBRARY_TEXTS.guestNoFolders}</Text>}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9 }}>
        <Stack gap="md">
          {folders && <FolderHeader library={library} folders={folders} />}
          <LibrarySearchBar library={library} />
          <FocusMissing library={library} />
          <LibraryGrid library={library} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/**
 * /library (issue 21 item 7): every finished result the person made, in every tool, newest first:
 * searched by prompt, filtered by kind and folder, paged by next_start_keys; folders to keep them
 * in; `?item={id}` (History's "Open in Library") brings that result into view. Signed out: a
 * prompt to sign in and no calls.
 */
export function LibraryScreen() {
  const deciding = SessionActorContext.useSelector(selectSignInUndecided);
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const guest = SessionActorContext.useSelector(selectIsGuest);
  const [params] = useSearchParams();
  const focusId = params.get('item');
  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>{LIBRARY_TEXTS.title}</Title>
          <Text c="dimmed">{LIBRARY_TEXTS.intro}</Text>
        </Stack>
        {deciding ? (
          <Skeleton height={120} radius="md" aria-hidden="true" />
        ) : signedIn ? (
          <Library key={`${userId ?? ''}\n${focusId ?? ''}`} focusId={focusId} guest={guest} />
        ) : (
          <Paper withBorder p="lg" radius="md">
            <Stack gap="xs" align="flex-start">
              <Text>{LIBRARY_TEXTS.signIn}</Text>
              <Button component={Link} to={ROUTES.authentication}>
                {LIBRARY_TEXTS.signInButton}
              </Button>
            </Stack>
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
