import { Anchor, Badge, Button, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { LightboxTrigger, lightboxPictureId } from '@/components/media/result-lightbox';
import { CompareToggle } from '@/components/media/result-compare';
import { ShareModal } from '@/components/media/share-modal';
import { PictureUpscale } from '@/components/media/upscale-button';
import { CREATION_TYPES, ribbonLabelFor, type CreationType } from '@/config/creation-types';
import type { MediaKind } from '@/config/enums';
import { TOOL_TEXTS, JOB_TEXTS } from '@/config/job-texts';
import { ROUTES } from '@/config/routes';
import { SHARING_TEXTS } from '@/config/sharing-texts';
import { formatDateTime } from '@/lib/format';
import { labelJobHistory, readJobHistory } from '@/lib/job-history';
import { classifyStatus } from '@/lib/job-status';
import { stringArg } from '@/lib/records';
import { resultLabel, resultLabelKind } from '@/lib/result-labels';
import { shareMachine } from '@/machines/content/share.machine';
import { resultFileMachine } from '@/machines/result-file/result-file.machine';
import { selectBroken, selectFileUrl, selectRefreshing, selectThumbnailUrl } from '@/machines/result-file/result-file.selectors';
import { selectVisibility } from '@/machines/content/share.selectors';
import type { selectHistory } from '@/machines/tool-history/tool-history.selectors';
import { inspect } from '@/lib/inspection/hub';

export type MediaItem = ReturnType<typeof selectHistory>[number];

export interface ShownResult {
  label: string;
  url: string;
  thumbnailUrl: string | null;
  /** A video's GIF, when the job made one. */
  gifUrl: string | null;
  /** The result's place in the media's `items` (what `?extend=` / `?video=` links name); null for a history-only result. */
  itemIndex: number | null;
  /** The seed this picture was made with (issue 21 item 7); null when the item does not say. */
  seed: number | null;
}

const isCreationType = (value: string | undefined): value is CreationType =>
  CREATION_TYPES.some((candidate) => candidate.type === value);

/** The SPEC §2.4 ribbon of a video made by a creation type (AI-motion, Parallax, …), or null. */
export function ribbonOf(media: Pick<MediaItem, 'args'>): string | null {
  const type = stringArg(media.args, 'creation_type');
  return isCreationType(type) ? ribbonLabelFor(type) : null;
}

/**
 * The results of one media item, each with its SPEC §3 label "{run}.{index}.{option}": the one
 * the server gave the item, else read from the job history. The files shown are the item's own
 * (signed, fresh) URLs when it has them; the history's URLs otherwise.
 */
export function shownResults(media: MediaItem): ShownResult[] {
  const withFile = media.items.map((item, itemIndex) => ({ item, itemIndex })).filter(({ item }) => item.url);
  // An upload is not a generation: no run, no model; its file name says what it is.
  if (media.tool.startsWith('upload-')) {
    const name = media.files.find((file) => file.role === 'original')?.name ?? stringArg(media.args, 'filename') ?? media.id;
    return withFile.map(({ item, itemIndex }) => ({
      label: name,
      url: item.url ?? '',
      thumbnailUrl: item.thumbnail_url,
      gifUrl: item.gif_url ?? null,
      itemIndex,
      seed: null,
    }));
  }
  const kind = resultLabelKind({ kind: media.kind, tool: media.tool, creationType: stringArg(media.args, 'creation_type') });
  const labelled = labelJobHistory(readJobHistory(media), kind);
  if (withFile.length === 0) {
    return labelled.map(({ label, url }) => ({ label, url, thumbnailUrl: null, gifUrl: null, itemIndex: null, seed: null }));
  }
  const args = {
    option: stringArg(media.args, 'option') ?? media.option,
    effect: stringArg(media.args, 'effect'),
    aspect_ratio: stringArg(media.args, 'aspect_ratio'),
    voice: stringArg(media.args, 'voice'),
    model: stringArg(media.args, 'model'),
  };
  return withFile.map(({ item, itemIndex }, position) => ({
    label: item.label || (labelled[position]?.label ?? resultLabel({ run: 1, index: position + 1, kind, args })),
    url: item.url ?? '',
    thumbnailUrl: item.thumbnail_url,
    gifUrl: item.gif_url ?? null,
    itemIndex,
    seed: item.seed ?? null,
  }));
}

/** Where a video result can be taken on to: AI Motion extends it, Edit Video edits it (`item` = its place in the media). */
export const extendVideoPath = (mediaId: string, itemIndex: number): string =>
  `${ROUTES.aiVideo.aiMotion}?extend=${encodeURIComponent(mediaId)}&item=${itemIndex}`;
export const editVideoPath = (mediaId: string, itemIndex: number): string =>
  `${ROUTES.aiVideo.editVideo}?video=${encodeURIComponent(mediaId)}&item=${itemIndex}`;
/** A picture result taken on to AI Motion as its first frame (`item` = its place in the media). */
export const animatePicturePath = (mediaId: string, itemIndex: number): string =>
  `${ROUTES.aiVideo.aiMotion}?image=${encodeURIComponent(mediaId)}&item=${itemIndex}`;

interface ResultFileProps {
  kind: MediaKind;
  mediaId: string;
  result: ShownResult;
  prompt: string | undefined;
  /** One of several pictures of a run: it shows its own seed. */
  ownSeed: boolean;
}

function VideoLinks({ mediaId, result }: { mediaId: string; result: ShownResult }) {
  const name = (action: string) => TOOL_TEXTS.resultAction(action, result.label);
  return (
    <Group gap="sm">
      <Anchor href={result.url} download size="xs" aria-label={name(TOOL_TEXTS.downloadMp4)}>
        {TOOL_TEXTS.downloadMp4}
      </Anchor>
      {result.gifUrl && (
        <Anchor href={result.gifUrl} target="_blank" rel="noreferrer" size="xs" aria-label={name(TOOL_TEXTS.gif)}>
          {TOOL_TEXTS.gif}
        </Anchor>
      )}
      {result.itemIndex !== null && (
        <>
          <Anchor component={Link} to={extendVideoPath(mediaId, result.itemIndex)} size="xs" aria-label={name(TOOL_TEXTS.extend)}>
            {TOOL_TEXTS.extend}
          </Anchor>
          <Anchor component={Link} to={editVideoPath(mediaId, result.itemIndex)} size="xs" aria-label={name(TOOL_TEXTS.edit)}>
            {TOOL_TEXTS.edit}
          </Anchor>
        </>
      )}
    </Group>
  );
}

function ResultFile({ kind, mediaId, result: given, prompt, ownSeed }: ResultFileProps) {
  const description = prompt ? `${given.label}: ${prompt}` : given.label;
  // A signed link that fails to load (expired, refused) is replaced by a fresh one (resultFile machine).
  const file = useActorRef(resultFileMachine, {
    inspect,
    input: { mediaId, itemIndex: given.itemIndex, url: given.url, thumbnailUrl: given.thumbnailUrl },
  });
  const url = useSelector(file, selectFileUrl);
  const thumbnailUrl = useSelector(file, selectThumbnailUrl);
  const broken = useSelector(file, selectBroken);
  const refreshing = useSelector(file, selectRefreshing);
  const result: ShownResult = { ...given, url, thumbnailUrl };
  const failed = () => file.send({ type: 'file.failed' });
  return (
    <Stack gap={4}>
      {broken ? (
        <Text size="sm" c="red.8" role="alert">
          {TOOL_TEXTS.fileNotLoaded(given.label)}
        </Text>
      ) : refreshing ? (
        <Text size="sm" c="dimmed" role="status">
          {TOOL_TEXTS.fileRefreshing}
        </Text>
      ) : kind === 'image' ? (
        <LightboxTrigger id={lightboxPictureId(mediaId, result.label)} label={result.label} href={result.url}>
          <img
            src={result.thumbnailUrl ?? result.url}
            alt={description}
            loading="lazy"
            onError={failed}
            style={{ width: '100%', maxHeight: 320, objectFit: 'contain', borderRadius: 6, display: 'block' }}
          />
        </LightboxTrigger>
      ) : kind === 'audio' ? (
        <audio controls preload="metadata" src={result.url} aria-label={description} onError={failed} style={{ width: '100%' }} />
      ) : (
        <video
          controls
          preload="metadata"
          src={result.url}
          poster={result.thumbnailUrl ?? undefined}
          aria-label={description}
          onError={failed}
          style={{ width: '100%', maxHeight: 360, borderRadius: 6, background: 'black' }}
        />
      )}
      <Group justify="space-between" gap="xs">
        <Text size="xs" ff="monospace">
          {result.label}
        </Text>
        {ownSeed && result.seed !== null && (
          <Text size="xs" c="dimmed">
            {TOOL_TEXTS.seed(result.seed)}
          </Text>
        )}
        {kind === 'video' ? (
          <VideoLinks mediaId={mediaId} result={result} />
        ) : (
          <Anchor href={result.url} download size="xs" aria-label={TOOL_TEXTS.resultAction(TOOL_TEXTS.download, result.label)}>
            {TOOL_TEXTS.download}
          </Anchor>
        )}
      </Group>
      {kind === 'image' && !broken && (
        // Issue 21 item 7: take this picture on (Upscale) or mark it to compare with another.
        <Group gap="sm">
          <PictureUpscale url={result.url} label={result.label} />
          <CompareToggle id={lightboxPictureId(mediaId, given.label)} label={result.label} />
        </Group>
      )}
    </Stack>
  );
}

/**
 * A finished result's sharing (SPEC §2.8): its visibility as a badge when it is not private, and
 * "Share", which opens the sharing form.
 */
function ShareControls({ media, label }: { media: MediaItem; label: string }) {
  const share = useActorRef(shareMachine, {
    inspect,
    input: { mediaId: media.id, title: media.title, description: media.description, visibility: media.visibility },
  });
  const visibility = useSelector(share, selectVisibility);
  const [opened, { open, close }] = useDisclosure(false);
  const closeModal = () => {
    close();
    // The next opening starts from the form again (a saved link, a failure are not kept).
    share.send({ type: 'share.edit' });
  };
  const badge = SHARING_TEXTS.share.badge[visibility];
  return (
    <Group gap="xs">
      {visibility !== 'private' && (
        <Badge
          size="sm"
          variant="light"
          color={visibility === 'public' ? 'teal' : 'gray'}
          style={{ textTransform: 'none' }}
          aria-label={SHARING_TEXTS.share.badgeLabel(badge)}
        >
          {badge}
        </Badge>
      )}
      <Button size="compact-xs" variant="light" onClick={open} aria-label={SHARING_TEXTS.share.buttonFor(label)}>
        {SHARING_TEXTS.share.button}
      </Button>
      <ShareModal share={share} opened={opened} onClose={closeModal} fallbackTitle={stringArg(media.args, 'prompt') ?? ''} />
    </Group>
  );
}

/** One earlier job of this tool: its results, or why it has none (and whether it was refunded). */
export interface MediaResultCardProps {
  media: MediaItem;
  highlighted: boolean;
  /** The model's label from the model list; its value is shown when the list does not know it. */
  modelLabel?: string;
}

export function MediaResultCard({ media, highlighted, modelLabel }: MediaResultCardProps) {
  const outcome = classifyStatus(media.status);
  const prompt = stringArg(media.args, 'prompt');
  const results = outcome === 'success' ? shownResults(media) : [];
  const ribbon = ribbonOf(media);
  const columns = media.kind === 'image' || (media.kind === 'video' && results.length > 1) ? 2 : 1;
  return (
    <Paper
      id={`result-${media.id}`}
      component="article"
      withBorder
      p="md"
      radius="md"
      data-highlighted={highlighted || undefined}
      aria-current={highlighted ? 'true' : undefined}
      style={highlighted ? { outline: '3px solid var(--mantine-color-blue-5)', outlineOffset: 2 } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {modelLabel ?? media.option ?? stringArg(media.args, 'option') ?? ''}
            </Text>
            {ribbon && (
              <Badge size="sm" variant="filled" color="grape" style={{ textTransform: 'none' }}>
                {ribbon}
              </Badge>
            )}
          </Group>
          <Group gap="xs">
            {/* Issue 21 item 7: the seed its model was given, to make it again or vary it (History). */}
            {typeof media.seed === 'number' && (
              <Text size="xs" c="dimmed">
                {TOOL_TEXTS.seed(media.seed)}
              </Text>
            )}
            <Text size="xs" c="dimmed" component="time" dateTime={media.created_at}>
              {formatDateTime(media.created_at)}
            </Text>
          </Group>
        </Group>
        {prompt && (
          <Text size="sm" lineClamp={3}>
            {prompt}
          </Text>
        )}
        {outcome === 'success' && (
          <SimpleGrid cols={{ base: 1, sm: columns }} spacing="sm">
            {results.map((result) => (
              <ResultFile
                key={`${result.label}-${result.url}`}
                kind={media.kind}
                mediaId={media.id}
                result={result}
                prompt={prompt}
                ownSeed={results.length > 1}
              />
            ))}
          </SimpleGrid>
        )}
        {outcome === 'success' && results.length > 0 && (
          <ShareControls media={media} label={modelLabel ?? media.option ?? stringArg(media.args, 'option') ?? results[0]?.label ?? ''} />
        )}
        {outcome === 'processing' && (
          <Stack gap={4}>
            <Text size="sm">{JOB_TEXTS.phase.processing(media.progress, null)}</Text>
            <Progress value={media.progress} aria-label={`${media.option ?? ''} progress`} />
          </Stack>
        )}
        {(outcome === 'failed' || outcome === 'nsfw' || outcome === 'cancelled') && (
          <Group gap="xs">
            <Badge color={outcome === 'cancelled' ? 'gray' : outcome === 'nsfw' ? 'orange' : 'red'} variant="light" style={{ textTransform: 'none' }}>
              {JOB_TEXTS.phase[outcome](media.progress, media.error)}
            </Badge>
            {/* A job that cost nothing (a developer's, a free model) has nothing to refund. */}
            {(media.refunded || media.cost > 0) && (
              <Text size="xs" c={media.refunded ? 'teal' : 'dimmed'}>
                {media.refunded ? JOB_TEXTS.refunded(media.cost) : TOOL_TEXTS.notRefunded}
              </Text>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
