/** Words of the result lightbox (issue 17): a tool page's pictures shown large. */
export const LIGHTBOX_TEXTS = {
  /** The button over a result picture that opens it large. */
  open: (label: string): string => `View ${label} larger`,
  title: (label: string): string => label,
  position: (index: number, total: number): string => `${index + 1} of ${total}`,
  previous: 'Previous picture',
  next: 'Next picture',
  download: 'Download',
  downloadLabel: (label: string): string => `Download ${label}`,
  openOriginal: 'Open in a new tab',
  keys: 'Left and right arrow keys move between the pictures.',
} as const;
