import { Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { MediaKind } from '@/config/enums';
import type { GenerationToolSpec } from '@/config/generation-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { LiveJobCard, liveJobCardId } from '@/components/media/live-job-card';
import { MediaResultCard, shownResults } from '@/components/media/media-result-card';
import { ResultCompareProvider, type ComparePicture } from '@/components/media/result-compare';
import { ResultLightboxProvider, lightboxPictureId, type LightboxPicture } from '@/components/media/result-lightbox';
import { UpscaleButton, UpscaleOffered } from '@/components/media/upscale-button';
import { classifyStatus } from '@/lib/job-status';
import { stringArg } from '@/lib/records';
import { selectJobEntries } from '@/machines/jobs/jobs.selectors';
import { toolHistoryMachine } from '@/machines/tool-history/tool-history.machine';
import { selectHistory } from '@/machines/tool-history/tool-history.selectors';
import { inspect } from '@/lib/inspection/hub';

/** Whose results: a generation tool's spec, or any media `tool` slug and the kind of its results. */
export type ToolResultsSource = { spec: GenerationToolSpec } | { tool: string; kind: MediaKind };

/**
 * The results of a tool page, newest first: the jobs of this tool still running (from the jobs
 * registry, with progress and cancel), then the person's earlier jobs of the tool, reloaded each
 * time one of this tool's jobs ends. `?job={mediaId}` scrolls to that result and marks it.
 * Used by the generation tool pages (`spec`) and the video creation pages (`tool` =
 * VIDEO_CREATION_TOOLS[type], `kind` = 'video').
 */
export type ToolResultsProps = ToolResultsSource & {
  /** Model value → the label the model list shows. */
  modelLabels?: ReadonlyMap<string, string>;
  /** The section's heading (default "Results"); it also names the region. */
  title?: string;
};

export function ToolResults(props: ToolResultsProps) {
  const { modelLabels, title = TOOL_TEXTS.resultsHeading } = props;
  const tool = 'spec' in props ? props.spec.slug : props.tool;
  const kind = 'spec' in props ? props.spec.kind : props.kind;
  const headingId = useId();
  const jobs = JobsActorContext.useActorRef();
  const entries = JobsActorContext.useSelector(selectJobEntries);
  const history = useActorRef(toolHistoryMachine, { input: { tool }, inspect });
  const items = useSelector(history, selectHistory);
  const [searchParams] = useSearchParams();
  const highlighted = searchParams.get('job');

  const live = useMemo(
    () => entries.filter((entry) => entry.stored.tool === tool && entry.stored.outcome === null),
    [entries, tool],
  );
  // A running job is shown once, as its live card, not again from the listing.
  const liveMediaIds = useMemo(() => new Set(live.map((entry) => entry.stored.mediaId)), [live]);
  // Only results of the page's kind (a tool slug names one kind of result; this keeps it so).
  const earlier = useMemo(
    () => items.filter((media) => media.kind === kind && !liveMediaIds.has(media.id)),
    [items, kind, liveMediaIds],
  );

  // Every finished picture of the list, newest first: the lightbox moves through them all, and any
  // two can be compared (issue 21 item 7) with what made each.
  const comparePictures = useMemo(
    (): ComparePicture[] =>
      earlier
        .filter((media) => media.kind === 'image' && classifyStatus(media.status) === 'success')
        .flatMap((media) => {
          const prompt = stringArg(media.args, 'prompt');
          const option = media.option ?? stringArg(media.args, 'option') ?? '';
          const results = shownResults(media);
          return results.map((result, index) => ({
            id: lightboxPictureId(media.id, result.label),
            url: result.url,
            label: result.label,
            alt: prompt ? `${result.label}: ${prompt}` : result.label,
            prompt: prompt ?? null,
            model: modelLabels?.get(option) ?? option,
            seed: result.seed ?? (index === 0 && typeof media.seed === 'number' ? media.seed : null),
            cost: media.cost,
            runPictures: results.length,
          }));
        }),
    [earlier, modelLabels],
  );
  const pictures = useMemo(
    (): LightboxPicture[] => comparePictures.map(({ id, url, label, alt }) => ({ id, url, label, alt })),
    [comparePictures],
  );

  useEffect(() => {
    const subscription = jobs.on('jobs.finished', (event) => {
      if (event.tool === tool) history.send({ type: 'history.refresh' });
    });
    return () => subscription.unsubscribe();
  }, [jobs, history, tool]);

  // `?job=` names a media: a running job's live card, or an earlier result.
  const highlightedLive = highlighted ? (live.find((entry) => entry.stored.mediaId === highlighted) ?? null) : null;
  const highlightElementId = highlightedLive
    ? liveJobCardId(highlightedLive.localId)
    : highlighted && earlier.some((media) => media.id === highlighted)
      ? `result-${highlighted}`
      : null;
  useEffect(() => {
    if (!highlightElementId) return;
    document.getElementById(highlightElementId)?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [highlightElementId]);

  const cancel = (localId: string) => jobs.send({ type: 'jobs.cancel', localId });

  return (
    <UpscaleOffered.Provider value>
      <ResultLightboxProvider
        pictures={pictures}
        // Keyed by picture: moving to the next picture offers its own Upscale.
        actions={(picture) => <UpscaleButton key={picture.id} url={picture.url} label={picture.label} />}
      >
        <Stack gap="sm" component="section" aria-labelledby={headingId}>
          <Title order={2} size="h3" id={headingId}>
            {title}
          </Title>
          <ResultCompareProvider pictures={comparePictures}>
            {live.map((entry) => (
              <LiveJobCard key={entry.localId} entry={entry} onCancel={cancel} highlighted={entry === highlightedLive} />
            ))}
            {earlier.map((media) => (
              <MediaResultCard
                key={media.id}
                media={media}
                highlighted={media.id === highlighted}
                modelLabel={modelLabels?.get(media.option ?? stringArg(media.args, 'option') ?? '')}
              />
            ))}
            {live.length === 0 && earlier.length === 0 && <Text c="dimmed">{TOOL_TEXTS.resultsEmpty}</Text>}
          </ResultCompareProvider>
        </Stack>
      </ResultLightboxProvider>
    </UpscaleOffered.Provider>
  );
}
