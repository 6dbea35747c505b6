import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { CONTENT_KEYWORD_MAX } from '@/config/sharing';
import { SHARING_TEXTS } from '@/config/sharing-texts';
import type { contentsMachine } from '@/machines/content/contents.machine';
import {
  selectAppliedKeyword,
  selectContentItems,
  selectContentsError,
  selectContentsStatus,
  selectHasMore,
  selectIsLoadingMore,
  selectTypedKeyword,
} from '@/machines/content/contents.selectors';
import { ContentGrid, ContentGridSkeleton } from '@/screens/content/content-grid';

const TEXTS = SHARING_TEXTS.listing;

export interface ContentListingProps {
  contents: ActorRefFrom<typeof contentsMachine>;
  /** Latest names each item's owner; a profile does not. */
  showOwner: boolean;
  /** What an empty listing says when nothing was searched. */
  emptyText: string;
  /** The next step shown under an empty listing when nothing was searched. */
  emptyHint?: ReactNode;
}

/**
 * A listing of shared results: the search box, the grid (or placeholders, "nothing here", a
 * failure with a retry) and "Load more" while the server has more pages.
 */
export function ContentListing({ contents, showOwner, emptyText, emptyHint }: ContentListingProps) {
  const status = useSelector(contents, selectContentsStatus);
  const items = useSelector(contents, selectContentItems);
  const typed = useSelector(contents, selectTypedKeyword);
  const keyword = useSelector(contents, selectAppliedKeyword);
  const hasMore = useSelector(contents, selectHasMore);
  const loadingMore = useSelector(contents, selectIsLoadingMore);
  const error = useSelector(contents, selectContentsError);

  return (
    <Stack gap="md">
      <TextInput
        type="search"
        label={TEXTS.search}
        placeholder={TEXTS.searchPlaceholder}
        maxLength={CONTENT_KEYWORD_MAX}
        value={typed}
        onChange={(event) => contents.send({ type: 'contents.search', keyword: event.currentTarget.value })}
        style={{ maxWidth: 420 }}
      />
      {status === 'loading' ? (
        <ContentGridSkeleton label={TEXTS.loading} />
      ) : status === 'failed' ? (
        <Alert color="red" title={TEXTS.failed} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{error}</Text>
            <Button variant="default" size="xs" onClick={() => contents.send({ type: 'contents.retry' })}>
              {TEXTS.retry}
            </Button>
          </Stack>
        </Alert>
      ) : status === 'empty' ? (
        <Stack gap="xs" align="flex-start">
          <Text c="dimmed" role="status">
            {keyword ? TEXTS.noResults(keyword) : emptyText}
          </Text>
          {!keyword && emptyHint}
        </Stack>
      ) : (
        <>
          <ContentGrid items={items} showOwner={showOwner} />
          {error && (
            <Text c="red" size="sm" role="alert">
              {TEXTS.moreFailed} {error}
            </Text>
          )}
          {hasMore && (
            <Group justify="center">
              <Button variant="light" loading={loadingMore} onClick={() => contents.send({ type: 'contents.loadMore' })}>
                {error ? TEXTS.retry : TEXTS.loadMore}
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
