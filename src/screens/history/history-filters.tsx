import { Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { HISTORY_TEXTS } from '@/config/history-texts';
import { selectAssetTools, selectMediaTools } from '@/machines/app-config/app-config.selectors';
import {
  JOB_SEARCH_SORT_LABELS,
  JOB_SEARCH_SORTS,
  JOB_SEARCH_STATUS_LABELS,
  JOB_SEARCH_STATUSES,
  type HistoryFilterChange,
  type jobHistoryMachine,
  type JobSearchSort,
  type JobSearchStatus,
} from '@/machines/job-history/job-history.machine';
import { selectHasFilters, selectHistoryFilters } from '@/machines/job-history/job-history.selectors';
import { modelChoices, TOOL_CHOICES } from '@/screens/history/history-view';

const TEXTS = HISTORY_TEXTS.filters;

const STATUS_CHOICES = JOB_SEARCH_STATUSES.map((status) => ({ value: status, label: JOB_SEARCH_STATUS_LABELS[status] }));
const SORT_CHOICES = JOB_SEARCH_SORTS.map((sort) => ({ value: sort, label: JOB_SEARCH_SORT_LABELS[sort] }));

const numberOrNull = (value: string | number): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The History page's filters: tool, the tool's models, status, prompt text (searched once typing
 * pauses), seed, cost range, date range and sort. Each change goes to the page's machine.
 */
export function HistoryFilters({ history }: { history: ActorRefFrom<typeof jobHistoryMachine> }) {
  const filters = useSelector(history, selectHistoryFilters);
  const hasFilters = useSelector(history, selectHasFilters);
  const assetTools = AppConfigActorContext.useSelector(selectAssetTools);
  const mediaTools = AppConfigActorContext.useSelector(selectMediaTools);
  const models = modelChoices(filters.tool, assetTools, mediaTools);
  const change = (next: HistoryFilterChange) => history.send({ type: 'history.filter', change: next });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="history-filters-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h5" id="history-filters-title">
            {TEXTS.heading}
          </Title>
          {hasFilters && (
            <Button variant="subtle" size="compact-sm" onClick={() => history.send({ type: 'history.clear' })}>
              {TEXTS.clear}
            </Button>
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <TextInput
            type="search"
            label={TEXTS.prompt}
            placeholder={TEXTS.promptPlaceholder}
            value={filters.q}
            onChange={(event) => history.send({ type: 'history.type', q: event.currentTarget.value })}
          />
          <Select
            label={TEXTS.tool}
            placeholder={TEXTS.anyTool}
            data={TOOL_CHOICES}
            value={filters.tool}
            onChange={(tool) => change({ tool })}
            clearable
            searchable
          />
          <Select
            label={TEXTS.model}
            placeholder={filters.tool ? TEXTS.anyModel : TEXTS.modelNeedsTool}
            data={models}
            value={filters.option}
            onChange={(option) => change({ option })}
            disabled={!filters.tool}
            clearable
            searchable
          />
          <Select
            label={TEXTS.status}
            placeholder={TEXTS.anyStatus}
            data={STATUS_CHOICES}
            value={filters.status}
            onChange={(status) => change({ status: status as JobSearchStatus | null })}
            clearable
          />
          <TextInput
            label={TEXTS.seed}
            inputMode="numeric"
            value={filters.seed}
            onChange={(event) => change({ seed: event.currentTarget.value })}
          />
          <NumberInput
            label={TEXTS.costMin}
            min={0}
            allowDecimal={false}
            value={filters.costMin ?? ''}
            onChange={(value) => change({ costMin: numberOrNull(value) })}
          />
          <NumberInput
            label={TEXTS.costMax}
            min={0}
            allowDecimal={false}
            value={filters.costMax ?? ''}
            onChange={(value) => change({ costMax: numberOrNull(value) })}
          />
          <Select
            label={TEXTS.sort}
            data={SORT_CHOICES}
            value={filters.sort}
            onChange={(sort) => sort && change({ sort: sort as JobSearchSort })}
            allowDeselect={false}
          />
          <TextInput
            type="date"
            label={TEXTS.from}
            value={filters.from ?? ''}
            onChange={(event) => change({ from: event.currentTarget.value || null })}
          />
          <TextInput
            type="date"
            label={TEXTS.to}
            value={filters.to ?? ''}
            onChange={(event) => change({ to: event.currentTarget.value || null })}
          />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
