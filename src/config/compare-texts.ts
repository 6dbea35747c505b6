/** Words of the results' picture actions (issue 21 item 7): Upscale from a result, Compare two results. */

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;

export const RESULT_ACTION_TEXTS = {
  upscale: {
    /** The button: what it does and what it costs. */
    button: (cost: number): string => `Upscale · ${credits(cost)}`,
    buttonLabel: (label: string, cost: number): string => `Upscale ${label} (${credits(cost)})`,
    started: 'Upscaling: follow it in the jobs panel.',
    /** The jobs panel's and the toast's name of the job. */
    jobTitle: 'Upscale',
  },
  compare: {
    toggle: 'Compare',
    toggleLabel: (label: string): string => `Compare ${label}`,
    /** The bar over a results list once pictures are marked. */
    chosen: (count: number): string => (count === 1 ? '1 picture marked: mark one more to compare.' : `${count} pictures marked.`),
    open: 'Compare side by side',
    clear: 'Clear',
    title: 'Compare two results',
    slider: 'Slider',
    panes: 'Side by side',
    modeLabel: 'How to show them',
    splitLabel: 'Split between the two pictures',
    splitValue: (percent: number, first: string, second: string): string => `${Math.round(percent)} % ${first}, ${100 - Math.round(percent)} % ${second}`,
    keys: 'Drag the handle, or focus it and use the arrow keys (Shift: 10 at a time), Home and End. Escape closes.',
    prompt: 'Prompt',
    noPrompt: 'No prompt',
    model: 'Model',
    seed: 'Seed',
    noSeed: 'Not recorded',
    cost: 'Cost',
    /** A picture of a run of several: the run's cost and how many pictures it made. */
    costOf: (cost: number, pictures: number): string => (pictures > 1 ? `${credits(cost)} for the run of ${pictures}` : credits(cost)),
    gone: 'One of the marked pictures is no longer listed.',
  },
} as const;
