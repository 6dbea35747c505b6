import { Anchor, Button, Group, List, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { useState } from 'react';
import { UploadField, type UploadedMedia } from '@/components/media/upload-field';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { BATCH_ADDITIONAL_VIDEOS_MAX } from '@/config/batch';
import { JOB_TEXTS } from '@/config/job-texts';
import { ROUTES } from '@/config/routes';
import { additionalVideoFrom } from '@/machines/batch/batch-board';
import { selectAlbumView } from '@/machines/batch/batch.selectors';
import type { AlbumVideoView } from '@/machines/batch/batch.selectors';
import { BatchActorContext } from '@/screens/albums/batch-context';

const TEXTS = ALBUM_TEXTS.edit;

/** A video job of the album: its progress while it runs, then the playable video (or why not). */
function AlbumVideo({ video, paused }: { video: AlbumVideoView; paused: boolean }) {
  return (
    <Paper component="article" aria-label={video.label} withBorder p="sm" radius="md">
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {video.label}
        </Text>
        {video.url ? (
          <video
            controls
            preload="metadata"
            src={video.url}
            poster={video.posterUrl ?? undefined}
            aria-label={video.label}
            style={{ width: '100%', borderRadius: 6, background: 'black' }}
          />
        ) : video.live ? (
          <Stack gap={4}>
            <Text size="sm">{paused ? ALBUM_TEXTS.clips.paused : JOB_TEXTS.phase[video.phase](video.progress, null)}</Text>
            <Progress value={video.progress} aria-label={ALBUM_TEXTS.clips.progress(video.label)} />
          </Stack>
        ) : (
          <Text size="sm" c="red">
            {JOB_TEXTS.phase[video.phase](video.progress, video.error)}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The clips' videos: progress while they are made, then each one playable, in board order. */
export function AlbumVideos() {
  const view = BatchActorContext.useSelector(selectAlbumView, shallowEqual);
  return (
    <Stack gap="sm" component="section" aria-labelledby="album-videos-heading">
      <Title order={2} size="h3" id="album-videos-heading">
        {ALBUM_TEXTS.clips.heading}
      </Title>
      {view.clips.length === 0 ? (
        <Text c="dimmed">{ALBUM_TEXTS.clips.empty}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {view.clips.map((video) => (
            <AlbumVideo key={video.id} video={video} paused={view.paused} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

const uploadedUrl = (media: UploadedMedia): string | null => media.items.find((item) => item.url)?.url ?? null;
const uploadedName = (media: UploadedMedia, fallback: string): string =>
  typeof media.args.filename === 'string' && media.args.filename !== '' ? media.args.filename : fallback;

/**
 * The edit section: a sound under the joined video, extra videos after the clips, then "Join into
 * one video" and the joined video, playable and downloadable.
 */
export function AlbumJoin() {
  const album = BatchActorContext.useActorRef();
  const view = BatchActorContext.useSelector(selectAlbumView, shallowEqual);
  // A fresh upload field after each upload: the file is then listed above it.
  const [audioField, setAudioField] = useState(0);
  const [videoField, setVideoField] = useState(0);
  const joined = view.joined;

  const onAudio = (media: UploadedMedia) => {
    const url = uploadedUrl(media);
    if (!url) return;
    album.send({ type: 'edit.setAudio', url });
    setAudioField((key) => key + 1);
  };
  const onVideo = (media: UploadedMedia) => {
    const url = uploadedUrl(media);
    if (!url) return;
    const label = uploadedName(media, `${TEXTS.additionalHeading} ${view.additionalVideos.length + 1}`);
    album.send({ type: 'edit.addVideo', video: additionalVideoFrom(url, label) });
    setVideoField((key) => key + 1);
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="album-join-heading">
      <Title order={2} size="h3" id="album-join-heading">
        {TEXTS.heading}
      </Title>
      <Text size="sm" c="dimmed">
        {TEXTS.intro}
      </Text>

      {view.audioUrl && (
        <Group gap="sm" align="center">
          <Text size="sm">{TEXTS.currentAudio}</Text>
          <audio controls src={view.audioUrl} aria-label={TEXTS.currentAudio} />
          <Button variant="subtle" size="compact-xs" onClick={() => album.send({ type: 'edit.setAudio', url: null })}>
            {TEXTS.removeAudio}
          </Button>
        </Group>
      )}
      <UploadField
        key={`audio-${audioField}`}
        kind="audio"
        label={TEXTS.audio}
        onChange={() => {}}
        onUploaded={onAudio}
        uploadPagePath={ROUTES.aiAudio.uploadAudio}
      />

      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {TEXTS.additionalHeading}
        </Text>
        {view.additionalVideos.length === 0 ? (
          <Text size="sm" c="dimmed">
            {TEXTS.additionalEmpty}
          </Text>
        ) : (
          <List spacing={4} aria-label={TEXTS.additionalHeading}>
            {view.additionalVideos.map((video, index) => (
              <List.Item key={`${video.url}-${index}`}>
                <Group gap="xs">
                  <Text size="sm">{video.label}</Text>
                  <Button
                    variant="subtle"
                    size="compact-xs"
                    onClick={() => album.send({ type: 'edit.removeVideo', index })}
                  >
                    {TEXTS.removeVideo(video.label)}
                  </Button>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
      {view.canAddVideo ? (
        <UploadField
          key={`video-${videoField}`}
          kind="video"
          label={TEXTS.additionalVideo}
          onChange={() => {}}
          onUploaded={onVideo}
          uploadPagePath={ROUTES.aiVideo.uploadVideo}
        />
      ) : (
        <Text size="sm" c="dimmed">
          {TEXTS.additionalLimit(BATCH_ADDITIONAL_VIDEOS_MAX)}
        </Text>
      )}

      <Group gap="sm" align="center">
        <Button
          variant="default"
          loading={view.savingEdit}
          disabled={!view.canSaveEdit}
          onClick={() => album.send({ type: 'edit.save' })}
        >
          {TEXTS.save}
        </Button>
        <Button
          loading={view.joining}
          disabled={!view.canJoin}
          aria-describedby={view.joinReason ? 'album-join-reason' : undefined}
          onClick={() => album.send({ type: 'edit.join' })}
        >
          {TEXTS.join}
        </Button>
        {view.joinReason && (
          <Text size="sm" c="dimmed" id="album-join-reason">
            {view.joinReason}
          </Text>
        )}
      </Group>

      {joined && (
        <Stack gap="xs">
          {joined.url ? (
            <>
              <AlbumVideo video={joined} paused={view.paused} />
              <Group>
                <Anchor href={joined.url} download size="sm">
                  {TEXTS.download}
                </Anchor>
              </Group>
            </>
          ) : joined.live ? (
            <AlbumVideo video={joined} paused={view.paused} />
          ) : (
            <Text size="sm" c="red" role="alert">
              {TEXTS.joinFailed(joined.error)}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
