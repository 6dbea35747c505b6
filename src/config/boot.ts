/**
 * The name of index.html's meta tag that lists the files of the app's start-up parts: written by
 * scripts/boot-prefetch.ts at build time, read by main.tsx, which prefetches them.
 */
export const BOOT_CHUNKS_META = 'kinora-boot-chunks';
