/**
 * Escape pressed in the help popover closes the popover only, not a modal it was opened from (the
 * share modal): Mantine's modals ignore an Escape whose target carries this attribute, so every
 * element that can hold focus in the popover has it.
 */
export const KEEP_ESCAPE = { 'data-mantine-stop-propagation': 'true' } as const;
