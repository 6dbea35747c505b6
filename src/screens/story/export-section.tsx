import { Alert, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { shallowEqual, useSelector } from '@xstate/react';
import { STORY_TEXTS } from '@/config/story-texts';
import { selectZipView, type ZipView } from '@/machines/story/story-export.selectors';
import { selectExportOffer, selectExportRef } from '@/machines/story/story-wizard.selectors';
import { StoryActorContext } from '@/screens/story/story-parts';

const TEXTS = STORY_TEXTS.export;

/** The zip's download: its progress, what went wrong (try again keeps the files), or that it was made. */
function ZipStatus({ zip }: { zip: ZipView }) {
  const story = StoryActorContext.useActorRef();
  if (zip.state === 'downloading' || zip.state === 'zipping') {
    return (
      <Stack gap={4}>
        <Group gap="sm">
          <Text size="sm" role="status">
            {zip.state === 'zipping' ? TEXTS.zipping : TEXTS.downloading(zip.done, zip.count)}
          </Text>
          {zip.state === 'downloading' && (
            <Button variant="default" size="compact-sm" onClick={() => story.send({ type: 'export.cancel' })}>
              {TEXTS.cancel}
            </Button>
          )}
        </Group>
        <Progress value={zip.percent} aria-label={TEXTS.progressLabel} animated />
      </Stack>
    );
  }
  if (zip.state === 'failed') {
    return (
      <Alert color="red" role="alert" title={TEXTS.zip}>
        <Stack gap="xs">
          <Text size="sm">{zip.error}</Text>
          <Group gap="sm">
            <Button size="compact-sm" onClick={() => story.send({ type: 'export.retry' })}>
              {TEXTS.retry}
            </Button>
            <Button size="compact-sm" variant="default" onClick={() => story.send({ type: 'export.cancel' })}>
              {TEXTS.cancel}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  if (zip.state === 'saved' && zip.savedAs) {
    return (
      <Text size="sm" role="status">
        {TEXTS.saved(zip.savedAs)}
      </Text>
    );
  }
  return null;
}

/** Export for editing: the timeline files one by one, or a zip with the media; offered once the film's parts exist. */
export function ExportSection() {
  const story = StoryActorContext.useActorRef();
  const offer = StoryActorContext.useSelector(selectExportOffer, shallowEqual);
  const exportRef = StoryActorContext.useSelector(selectExportRef);
  const zip = useSelector(exportRef, selectZipView, shallowEqual);
  // One zip at a time: a failed one is tried again or cancelled first.
  const zipBusy = zip.state === 'downloading' || zip.state === 'zipping' || zip.state === 'failed';
  const reasonId = 'story-export-reason';
  const disabled = offer.problem !== null;
  const describedBy = disabled ? reasonId : undefined;
  return (
    <Stack gap="sm" component="section" aria-labelledby="story-export-heading">
      <Title order={3} size="h4" id="story-export-heading">
        {TEXTS.heading}
      </Title>
      <Text size="sm" c="dimmed">
        {TEXTS.intro} {TEXTS.programs}
      </Text>
      <Group gap="sm" role="group" aria-label={TEXTS.group}>
        <Button variant="light" disabled={disabled} aria-describedby={describedBy} onClick={() => story.send({ type: 'export.file', format: 'otio' })}>
          {TEXTS.otio}
        </Button>
        <Button variant="light" disabled={disabled} aria-describedby={describedBy} onClick={() => story.send({ type: 'export.file', format: 'edl' })}>
          {TEXTS.edl}
        </Button>
        <Button
          variant="light"
          disabled={disabled || !offer.hasNarration}
          aria-describedby={disabled ? reasonId : !offer.hasNarration ? 'story-export-srt-reason' : undefined}
          onClick={() => story.send({ type: 'export.file', format: 'srt' })}
        >
          {TEXTS.srt}
        </Button>
        <Button disabled={disabled || zipBusy} aria-describedby={describedBy} onClick={() => story.send({ type: 'export.zip' })}>
          {TEXTS.zip}
        </Button>
      </Group>
      {offer.problem && (
        <Text size="sm" c="dimmed" id={reasonId}>
          {offer.problem}
        </Text>
      )}
      {!offer.problem && !offer.hasNarration && (
        <Text size="sm" c="dimmed" id="story-export-srt-reason">
          {TEXTS.noNarration}
        </Text>
      )}
      <ZipStatus zip={zip} />
    </Stack>
  );
}
