/** Names read out by screen readers for controls that show only an icon (set once, in src/app/theme.ts). */
export const A11Y_TEXTS = {
  /** The X of every modal and drawer (Mantine's close button has no name of its own). */
  closeDialog: 'Close dialog',
  /** The X of a toast. */
  closeNotification: 'Dismiss notification',
} as const;
