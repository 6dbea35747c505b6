import { Button, Container, Group, Loader, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { ToolResults } from '@/components/media/tool-results';
import { SessionActorContext } from '@/components/session/session-context';
import { PARALLAX_OPTION, VIDEO_CREATION_TOOLS, type MotionMode, type VideoCreationType } from '@/config/video-creation';
import { VIDEO_TEXTS } from '@/config/video-texts';
import { selectMediaTools } from '@/machines/app-config/app-config.selectors';
import { mediaSourceMachine } from '@/machines/media-source/media-source.machine';
import { selectCanRetrySource, selectSourcePicture, selectSourceVideo } from '@/machines/media-source/media-source.selectors';
import { selectCurrentUserId } from '@/machines/session/session.selectors';
import { ToolHelpButton } from '@/screens/tools/tool-help-button';
import { ToolPageHeader } from '@/screens/tools/tool-page-header';
import { ExtendSource } from '@/screens/video/extend-source';
import { parseItemIndex, videoHelpTopic } from '@/screens/video/video-creation-form';
import { VideoForm } from '@/screens/video/video-form';
import { inspect } from '@/lib/inspection/hub';

export interface VideoCreationScreenProps {
  type: VideoCreationType;
  title: string;
  groupLabel: string;
  groupPath: string;
}

/**
 * A video creation page (SPEC §2.4): AI Motion (from a picture, a text, a transition to an end
 * frame or a composer of pictures; with `?extend={mediaId}&item={n}` it extends that result, with
 * `?image={mediaId}&item={n}` that picture is the first frame),
 * Parallax Motion, Try On Video and Character Animate. The form, then the page's results.
 */
export function VideoCreationScreen({ type, title, groupLabel, groupPath }: VideoCreationScreenProps) {
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const models = AppConfigActorContext.useSelector(selectMediaTools);
  const [searchParams] = useSearchParams();
  const extendId = type === 'ai-motion' ? searchParams.get('extend') : null;
  // "Use in a tool" on a picture result: it arrives as AI Motion's first frame (the owner's media).
  const pictureId = type === 'ai-motion' && !extendId && userId ? searchParams.get('image') : null;
  const itemIndex = parseItemIndex(searchParams.get('item'));
  const formType: VideoCreationType = extendId ? 'extend-video' : type;
  const [mode, setMode] = useState<MotionMode>('image');
  const pageTitle = extendId ? VIDEO_TEXTS.extendTitle : title;
  const tool = VIDEO_CREATION_TOOLS[formType];
  // Results name their model as the model list does ("Kling AI"), not by its value.
  const modelLabels = useMemo(
    () => new Map([...models.map((model) => [model.value, model.label] as const), [PARALLAX_OPTION, PARALLAX_OPTION] as const]),
    [models],
  );

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <ToolPageHeader
          title={pageTitle}
          groupLabel={groupLabel}
          groupPath={groupPath}
          aside={<ToolHelpButton topicIndex={videoHelpTopic(formType, mode)} />}
        />
        {extendId ? (
          userId ? (
            // A new source (or person) starts a fresh load and form.
            <ExtendVideo key={`${userId}:${extendId}:${itemIndex}`} mediaId={extendId} itemIndex={itemIndex} title={pageTitle} />
          ) : (
            <>
              <ExtendSource view={null} canRetry={false} onRetry={() => undefined} />
              <VideoForm key="extend-signed-out" type="extend-video" title={pageTitle} />
            </>
          )
        ) : pictureId ? (
          <PictureSourceForm
            key={`${userId}:${pictureId}:${itemIndex}`}
            mediaId={pictureId}
            itemIndex={itemIndex}
            type={formType}
            title={pageTitle}
            onModeChange={setMode}
          />
        ) : (
          <VideoForm key={formType} type={formType} title={pageTitle} onModeChange={setMode} />
        )}
        {/* A new person (or none) gets their own history. */}
        <ToolResults key={`${userId ?? 'signed-out'}:${tool}`} tool={tool} kind="video" modelLabels={modelLabels} />
        {/* Extended videos have no page of their own (SPEC §2.4): AI Motion lists them too. */}
        {type === 'ai-motion' && !extendId && (
          <ToolResults
            key={`${userId ?? 'signed-out'}:extended`}
            tool={VIDEO_CREATION_TOOLS['extend-video']}
            kind="video"
            modelLabels={modelLabels}
            title={VIDEO_TEXTS.extendedResults}
          />
        )}
      </Stack>
    </Container>
  );
}

interface ExtendVideoProps {
  mediaId: string;
  itemIndex: number;
  title: string;
}

/** Extend Video: the person's video loaded by id (`?extend=`), then the form that continues it. */
function ExtendVideo({ mediaId, itemIndex, title }: ExtendVideoProps) {
  const source = useActorRef(mediaSourceMachine, { input: { mediaId, itemIndex }, inspect });
  const view = useSelector(source, selectSourceVideo);
  const canRetry = useSelector(source, selectCanRetrySource);
  return (
    <>
      <ExtendSource view={view} canRetry={canRetry} onRetry={() => source.send({ type: 'source.retry' })} />
      <VideoForm type="extend-video" title={title} sourceVideoUrl={view.url} />
    </>
  );
}

interface PictureSourceFormProps {
  mediaId: string;
  itemIndex: number;
  type: VideoCreationType;
  title: string;
  onModeChange: (mode: MotionMode) => void;
}

/** AI Motion from one of the person's pictures (`?image=&item=`): loaded by id, then the form's first frame. */
function PictureSourceForm({ mediaId, itemIndex, type, title, onModeChange }: PictureSourceFormProps) {
  const source = useActorRef(mediaSourceMachine, { input: { mediaId, itemIndex }, inspect });
  const view = useSelector(source, selectSourceVideo);
  const picture = useSelector(source, selectSourcePicture);
  const canRetry = useSelector(source, selectCanRetrySource);
  return (
    <>
      {view.phase === 'loading' && (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{VIDEO_TEXTS.pictureSourceLoading}</Text>
        </Group>
      )}
      {view.phase === 'failed' && (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            {VIDEO_TEXTS.pictureSourceFailed(view.error ?? '')}
          </Text>
          {canRetry && (
            <Button variant="default" size="xs" onClick={() => source.send({ type: 'source.retry' })}>
              {VIDEO_TEXTS.sourceRetry}
            </Button>
          )}
        </Group>
      )}
      {view.phase !== 'loading' && view.phase !== 'failed' && !picture && (
        <Text size="sm" c="red" role="alert">
          {VIDEO_TEXTS.pictureSourceUnavailable}
        </Text>
      )}
      <VideoForm type={type} title={title} onModeChange={onModeChange} firstFrame={picture} />
    </>
  );
}
