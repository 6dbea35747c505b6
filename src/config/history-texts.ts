/**
 * Kinora's texts for the job History page, the jobs panel's link to it and a tool page filled in
 * from a past job (Remix; issue 21 item 1). SPEC gives none of them word for word.
 */

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;

export const HISTORY_TEXTS = {
  title: 'History',
  intro: 'Every job you have run, on any device: search, run again or remix.',
  /** The account menu's and the jobs panel's link to the page. */
  menuLink: 'Job history',
  panelLink: 'All jobs (history)',
  signIn: 'Sign in to see your jobs.',
  signInButton: 'Sign in',
  filters: {
    heading: 'Filters',
    tool: 'Tool',
    anyTool: 'Any tool',
    model: 'Model',
    anyModel: 'Any model',
    modelNeedsTool: 'Choose a tool first',
    status: 'Status',
    anyStatus: 'Any status',
    prompt: 'Prompt text',
    promptPlaceholder: 'Words in the prompt',
    seed: 'Seed',
    costMin: 'Cost from',
    costMax: 'Cost up to',
    from: 'Created from',
    to: 'Created up to',
    sort: 'Sort',
    clear: 'Clear filters',
  },
  columns: {
    tool: 'Tool',
    model: 'Model',
    status: 'Status',
    prompt: 'Prompt',
    seed: 'Seed',
    cost: 'Cost',
    created: 'Created',
    result: 'Result',
    actions: 'Actions',
  },
  tableLabel: 'Your jobs',
  loading: 'Loading your jobs…',
  failed: 'Your jobs could not be loaded',
  retry: 'Try again',
  loadMore: 'Load more',
  moreFailed: 'More jobs could not be loaded:',
  emptyFiltered: 'No jobs match these filters',
  empty: 'No jobs yet',
  emptyHint: 'Jobs you start on any tool page are listed here.',
  noPrompt: '—',
  cost: (cost: number, refunded: boolean): string => (refunded ? `${credits(cost)} (refunded)` : credits(cost)),
  parameters: 'Parameters',
  parametersOf: (tool: string): string => `Parameters of the ${tool} job`,
  parametersTitle: (tool: string): string => `${tool} job parameters`,
  noParameters: 'This job kept no parameters.',
  close: 'Close',
  /** `/history?job={id}` named a job that is not listed. */
  jobMissing: 'That job is not in your History: it may have been deleted, or is older than the jobs read for it.',
  rerun: 'Re-run',
  rerunLabel: (tool: string): string => `Re-run the ${tool} job with the same parameters`,
  rerunning: 'Starting…',
  /** Issue 21 item 7: the same settings, a new seed. */
  vary: 'Vary',
  varyLabel: (tool: string): string => `Vary the ${tool} job: the same settings with a new seed`,
  rerunStarted: (tool: string): string => `${tool} started again: follow it in the jobs panel.`,
  rerunFailed: 'The job could not be run again:',
  remix: 'Remix',
  remixLabel: (tool: string): string => `Remix the ${tool} job: open ${tool} with its parameters`,
  /** The status of a job still waiting for a worker (a running one says Running). */
  queued: 'Queued',
  /** A running job's progress bar (the row follows it live). */
  progressOf: (tool: string): string => `Progress of the ${tool} job`,
  /** A finished run's pictures (1–4 per run, issue 21 item 7), each with the seed it was made with. */
  picturesOf: (tool: string): string => `Pictures of the ${tool} job`,
  pictureLabel: (index: number, count: number, seed: number | null): string =>
    seed === null ? `Picture ${index} of ${count}` : `Picture ${index} of ${count}, seed ${seed}`,
  pictureSeed: (seed: number | null): string => (seed === null ? 'No seed kept' : `Seed ${seed}`),
  inspect: 'Inspect',
  inspectLabel: (tool: string): string => `Inspect the ${tool} job`,
} as const;

/** A tool page filled in from a past job (`?remix={mediaId}`). */
export const REMIX_TEXTS = {
  loading: 'Loading the previous job…',
  filled: 'Filled in from a previous job — check and press Generate',
  otherTool: (tool: string): string => `That job was made with ${tool}, not this tool: the form is left as it was.`,
  failed: (error: string): string => `The previous job could not be read (${error}): the form is left as it was.`,
  dismiss: 'Dismiss',
} as const;
