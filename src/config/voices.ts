import type { Option } from './enums';

/** The 21 voice presets of text-to-speech and lip sync (SPEC §3, §9). */
export const VOICES = [
  { value: 'Aria', label: 'Aria' },
  { value: 'Roger', label: 'Roger' },
  { value: 'Sarah', label: 'Sarah' },
  { value: 'Laura', label: 'Laura' },
  { value: 'Charlie', label: 'Charlie' },
  { value: 'George', label: 'George' },
  { value: 'Callum', label: 'Callum' },
  { value: 'River', label: 'River' },
  { value: 'Liam', label: 'Liam' },
  { value: 'Charlotte', label: 'Charlotte' },
  { value: 'Alice', label: 'Alice' },
  { value: 'Matilda', label: 'Matilda' },
  { value: 'Will', label: 'Will' },
  { value: 'Jessica', label: 'Jessica' },
  { value: 'Eric', label: 'Eric' },
  { value: 'Chris', label: 'Chris' },
  { value: 'Brian', label: 'Brian' },
  { value: 'Daniel', label: 'Daniel' },
  { value: 'Lily', label: 'Lily' },
  { value: 'Bill', label: 'Bill' },
  { value: 'Rachel', label: 'Rachel' },
] as const satisfies readonly Option[];

export type Voice = (typeof VOICES)[number]['value'];

/** SPEC leaves the fixed default preset unnamed; Kinora uses Aria for both text-to-speech and lip sync. */
export const DEFAULT_VOICE: Voice = 'Aria';
