import { JOB_SEARCH_DEFAULT_SORT } from '@/services/schemas/job-history';
import type { JobSearchSort, JobSearchStatus } from '@/services/schemas/job-history';
import type { JobSearch } from '@/services/job-history';

/** The History page's filters and the search they make (pure; the History machine keeps them). */

/** Jobs per page of the History page. */
export const HISTORY_PAGE_SIZE = 20;
/**
 * The History page's filters as the person set them. Empty means "any": null for a choice, ''
 * for a text. Dates are days (`YYYY-MM-DD`); `to` includes its whole day.
 */
export interface HistoryFilters {
  tool: string | null;
  option: string | null;
  status: JobSearchStatus | null;
  /** The prompt text as typed (applied after HISTORY_SEARCH_DEBOUNCE_MS). */
  q: string;
  seed: string;
  costMin: number | null;
  costMax: number | null;
  from: string | null;
  to: string | null;
  sort: JobSearchSort;
}

export const EMPTY_HISTORY_FILTERS: HistoryFilters = {
  tool: null,
  option: null,
  status: null,
  q: '',
  seed: '',
  costMin: null,
  costMax: null,
  from: null,
  to: null,
  sort: JOB_SEARCH_DEFAULT_SORT,
};

/** Every filter but the sort is at its "any" value (the list is then everything the person ran). */
export const filtersAreEmpty = (filters: HistoryFilters): boolean =>
  filters.tool === null &&
  filters.option === null &&
  filters.status === null &&
  filters.q.trim() === '' &&
  filters.seed.trim() === '' &&
  filters.costMin === null &&
  filters.costMax === null &&
  filters.from === null &&
  filters.to === null;

/** The search GET media is asked: only the filters that are set (dates as days; `to` includes its day). */
export function jobSearchOf(filters: HistoryFilters, nextStartKeys: string | null = null): JobSearch {
  const search: JobSearch = { sort: filters.sort, limit: HISTORY_PAGE_SIZE };
  if (filters.tool) search.tool = filters.tool;
  if (filters.option) search.option = filters.option;
  if (filters.status) search.status = filters.status;
  const q = filters.q.trim();
  if (q) search.q = q;
  const seed = filters.seed.trim();
  if (seed) search.seed = seed;
  if (filters.costMin !== null) search.costMin = filters.costMin;
  if (filters.costMax !== null) search.costMax = filters.costMax;
  if (filters.from) search.from = filters.from;
  if (filters.to) search.to = filters.to;
  if (nextStartKeys) search.nextStartKeys = nextStartKeys;
  return search;
}

/** What a filter change sets; the model is cleared with a new tool (it belongs to the tool). */
export type HistoryFilterChange = Partial<Omit<HistoryFilters, 'q'>>;

export const changedFilters = (filters: HistoryFilters, change: HistoryFilterChange): HistoryFilters => {
  const next = { ...filters, ...change };
  if (change.tool !== undefined && change.tool !== filters.tool && change.option === undefined) next.option = null;
  return next;
};
