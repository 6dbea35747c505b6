import { Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { GenerationToolSpec } from '@/config/generation-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { LiveJobCard, liveJobCardId } from '@/components/media/live-job-card';
import { MediaResultCard } from '@/components/media/media-result-card';
import { stringArg } from '@/lib/records';
import { selectJobEntries } from '@/machines/jobs/jobs.selectors';
import { toolHistoryMachine } from '@/machines/tool-history/tool-history.machine';
import { selectHistory } from '@/machines/tool-history/tool-history.selectors';

/**
 * The results of a tool page, newest first: the jobs of this tool still running (from the jobs
 * registry, with progress and cancel), then the person's earlier jobs of the tool, reloaded each
 * time one of this tool's jobs ends. `?job={mediaId}` scrolls to that result and marks it.
 */
export interface ToolResultsProps {
  spec: GenerationToolSpec;
  /** Model value → the label the model list shows. */
  modelLabels?: ReadonlyMap<string, string>;
}

export function ToolResults({ spec, modelLabels }: ToolResultsProps) {
  const jobs = JobsActorContext.useActorRef();
  const entries = JobsActorContext.useSelector(selectJobEntries);
  const history = useActorRef(toolHistoryMachine, { input: { tool: spec.slug } });
  const items = useSelector(history, selectHistory);
  const [searchParams] = useSearchParams();
  const highlighted = searchParams.get('job');

  const live = useMemo(
    () => entries.filter((entry) => entry.stored.tool === spec.slug && entry.stored.outcome === null),
    [entries, spec.slug],
  );
  // A running job is shown once, as its live card, not again from the listing.
  const liveMediaIds = useMemo(() => new Set(live.map((entry) => entry.stored.mediaId)), [live]);
  const earlier = useMemo(() => items.filter((media) => !liveMediaIds.has(media.id)), [items, liveMediaIds]);

  useEffect(() => {
    const subscription = jobs.on('jobs.finished', (event) => {
      if (event.tool === spec.slug) history.send({ type: 'history.refresh' });
    });
    return () => subscription.unsubscribe();
  }, [jobs, history, spec.slug]);

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
    <Stack gap="sm" component="section" aria-labelledby="tool-results-heading">
      <Title order={2} size="h3" id="tool-results-heading">
        {TOOL_TEXTS.resultsHeading}
      </Title>
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
    </Stack>
  );
}
