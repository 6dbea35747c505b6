import type { StoryPartState } from '../lib/story';

/**
 * Kinora's own texts of the AI Story pages (SPEC §1 AI Story, §2.7). SPEC gives none of them word
 * for word, so they live here; the machine's errors (the server's `detail`, the credit refusal)
 * arrive already written.
 */

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
const credits = (count: number): string => plural(count, 'credit', 'credits');
const seconds = (count: number): string => `${count} s`;
/** "a character", "an object" (the element kinds' words sound as they are spelled). */
const withArticle = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

/** The words for a counted part ("3 pictures", "1 video"). */
const PART_NOUNS = {
  elements: ['picture', 'pictures'],
  scenes: ['scene picture', 'scene pictures'],
  videos: ['video', 'videos'],
} as const;

export const STORY_TEXTS = {
  title: 'AI Story',
  groupLabel: 'AI Production',
  intro: 'Turn an idea into a short film: a storyboard of scenes, pictures of its characters and places, a picture and a video per scene, then one film with sound.',
  signIn: 'Sign in to write a story',
  loading: 'Loading the story…',
  notFound: 'This story does not exist, or it is not yours.',
  loadFailed: 'The story could not be loaded.',
  retry: 'Try again',
  allStories: 'All stories',
  dismiss: 'Dismiss',
  stepsLabel: 'Story steps',
  back: 'Back',
  next: (step: string): string => `Next: ${step}`,
  cancel: 'Cancel',

  /** The step badges in the stepper. */
  stepStatus: {
    running: (count: number): string => `${count} making`,
    stale: (count: number): string => `${count} changed`,
    done: 'Film made',
  },

  save: {
    saved: 'Saved',
    saving: 'Saving…',
    unsaved: 'Saving…',
    failed: 'Not saved — retrying',
  },

  /** A generated part's state, as its badge says it. */
  partState: {
    // Never made: the card's button says "Make", not "Regenerate", beside it.
    missing: 'Not made yet',
    running: 'Making…',
    ready: 'Ready',
    failed: 'Failed',
    stale: 'Stale',
  } satisfies Record<StoryPartState, string>,
  staleHint: 'Changed since this picture was made',
  staleVideoHint: 'Changed since this video was made',
  progress: (label: string): string => `${label} progress`,
  queued: 'Queued',
  making: (progress: number): string => `Making… ${Math.round(progress)} %`,

  /** "3 pictures × 4 credits = 12 credits". */
  cost: (part: keyof typeof PART_NOUNS, count: number, each: number, total: number): string =>
    `${plural(count, PART_NOUNS[part][0], PART_NOUNS[part][1])} × ${credits(each)} = ${credits(total)}`,
  soundCost: (total: number): string => `1 sound × ${credits(total)} = ${credits(total)}`,
  balance: (balance: number | null): string => (balance === null ? '' : ` · you have ${balance}`),
  nothingToMake: (part: keyof typeof PART_NOUNS): string => `Every ${PART_NOUNS[part][0]} is made and up to date.`,
  /** Said instead while the only parts left are still being made (beside Cancel). */
  beingMade: (part: keyof typeof PART_NOUNS, count: number): string =>
    `${count === 1 ? `1 ${PART_NOUNS[part][0]} is` : `${count} ${PART_NOUNS[part][1]} are`} being made.`,
  notEnoughCredits: (cost: number, balance: number | null): string =>
    `Not enough credits: this step costs ${cost} credits and you have ${balance ?? 0}.`,
  busy: 'Wait for the current work to finish.',

  idea: {
    heading: 'Idea',
    idea: 'Your idea',
    ideaRequired: (min: number): string => `Write at least ${min} characters.`,
    ideaTooLong: (max: number): string => `At most ${max} characters.`,
    counter: (count: number, max: number): string => `${count} / ${max} characters`,
    title: 'Title (optional)',
    titleTooLong: (max: number): string => `At most ${max} characters.`,
    duration: 'Film length',
    durationOption: (value: number): string => `${value} seconds`,
    aspectRatio: 'Aspect ratio',
    style: 'Style',
    references: 'Reference pictures (optional)',
    referencesHint: (max: number): string => `Up to ${max} pictures; the first one guides the main character.`,
    reference: (index: number): string => `Reference picture ${index}`,
    addReference: 'Add a reference picture',
    removeReference: (index: number): string => `Remove reference picture ${index}`,
    write: 'Write storyboard',
    writing: 'Writing the storyboard…',
    saveIdea: 'Save the idea',
    savingIdea: 'Saving the idea…',
    free: 'Writing the storyboard is free.',
  },

  storyboard: {
    heading: 'Storyboard',
    intro: 'Each scene becomes a picture and a video. Change the words, the shot and the length; reorder them as you like.',
    title: 'Film title',
    scene: (number: number): string => `Scene ${number}`,
    text: 'What happens',
    shot: 'Shot',
    duration: 'Length (seconds)',
    elements: 'In this scene',
    noElements: 'No elements in this scene.',
    moveUp: (number: number): string => `Move scene ${number} up`,
    moveDown: (number: number): string => `Move scene ${number} down`,
    remove: (number: number): string => `Remove scene ${number}`,
    add: 'Add a scene',
    addAfter: (number: number): string => `Add a scene after scene ${number}`,
    total: (count: number, total: number): string => `${plural(count, 'scene', 'scenes')} · ${seconds(total)} in all`,
    rewrite: 'Rewrite from idea',
    rewriting: 'Rewriting the storyboard…',
    rewriteTitle: 'Rewrite the storyboard from the idea?',
    rewriteText: 'Its scenes and elements are replaced by new ones written from the idea. Pictures and videos already made are no longer used.',
    rewriteConfirm: 'Rewrite',
    rewriteCancel: 'Keep this storyboard',
    empty: 'No scenes yet. Add one, or rewrite the storyboard from the idea.',
  },

  elements: {
    heading: 'Elements',
    intro: 'The characters, places and objects of the story. Each gets a picture; the scenes are drawn with them.',
    element: (name: string): string => name || 'Unnamed element',
    kind: 'Kind',
    name: 'Name',
    description: 'Description',
    pictureAlt: (name: string): string => `Picture of ${name}`,
    noPicture: 'No picture yet',
    regenerate: 'Regenerate',
    regenerateLabel: (name: string): string => `Regenerate the picture of ${name}`,
    makeOne: 'Make',
    makeOneLabel: (name: string): string => `Make the picture of ${name}`,
    remove: (name: string): string => `Remove ${name}`,
    add: (kind: string): string => `Add ${withArticle(kind.toLowerCase())}`,
    imageModel: 'Picture model',
    modelOption: (label: string, cost: number): string => `${label} · ${credits(cost)} a picture`,
    make: 'Make pictures',
    empty: 'No elements yet. Add a character, a place or an object.',
  },

  scenes: {
    heading: 'Scenes',
    intro: 'Each scene is drawn with the pictures of its elements.',
    pictureAlt: (number: number): string => `Picture of scene ${number}`,
    regenerate: 'Regenerate',
    regenerateLabel: (number: number): string => `Regenerate the picture of scene ${number}`,
    makeOne: 'Make',
    makeOneLabel: (number: number): string => `Make the picture of scene ${number}`,
    make: 'Make scene pictures',
    noPicture: 'No picture yet',
  },

  scriptboard: {
    heading: 'Scriptboard',
    intro: 'The scenes’ videos in order, with a sound under them, joined into one film.',
    timeline: 'Timeline',
    clip: (number: number, duration: number): string => `Scene ${number} · ${seconds(duration)}`,
    videoLabel: (number: number): string => `Video of scene ${number}`,
    regenerate: 'Regenerate video',
    regenerateLabel: (number: number): string => `Regenerate the video of scene ${number}`,
    makeOne: 'Make video',
    makeOneLabel: (number: number): string => `Make the video of scene ${number}`,
    videoModel: 'Motion model',
    modelOption: (label: string, cost: number): string => `${label} · ${credits(cost)} a video`,
    make: 'Make videos',
    noVideo: 'No video yet',
    audioHeading: 'Sound',
    audioKind: 'Sound under the film',
    narration: 'Narration',
    music: 'What the music should sound like',
    voice: 'Voice',
    makeSound: 'Make sound',
    soundNeedsText: 'Write the narration, or say what the music should sound like, first.',
    soundLabel: 'The film’s sound',
    noSound: 'The film has no sound.',
    filmHeading: 'The film',
    join: 'Make the film',
    joining: 'Joining the videos into one film…',
    filmLabel: 'The film',
    download: 'Download MP4',
    filmStale: 'The scenes or the sound changed since this film was made: make it again to include the changes.',
    filmFailed: (error: string | null): string => (error ? `Making the film failed: ${error}` : 'Making the film failed.'),
    noFilm: 'No film yet. Make every video (and the sound), then join them.',
  },

  /** A part's takes (issue 21, Kinora's): each regeneration keeps the ones before it. */
  takes: {
    /** `what`: "the picture of Mara", "the picture of scene 2", "the video of scene 2". */
    elementPicture: (name: string): string => `the picture of ${name}`,
    scenePicture: (number: number): string => `the picture of scene ${number}`,
    sceneVideo: (number: number): string => `the video of scene ${number}`,
    group: (what: string): string => `Takes of ${what}`,
    take: (number: number): string => `Take ${number}`,
    takeLabel: (number: number, what: string, active: boolean): string => `Take ${number} of ${what}${active ? ' (in use)' : ''}`,
    making: 'Making…',
    failed: 'Failed',
    undo: 'Undo',
    undoLabel: (number: number, what: string): string => `Undo: back to take ${number} of ${what}`,
  },

  /** A scene card's elements: the pictures it is drawn with. */
  sceneElements: (number: number): string => `Elements of scene ${number}`,

  /** Export for editing (issue 21, Kinora's). */
  export: {
    heading: 'Export for editing',
    intro: 'The cut for an editing program: each scene’s clip with its length, the sound under them and a marker per scene.',
    group: 'Export files',
    otio: 'Download OTIO timeline (.otio)',
    edl: 'Download EDL (.edl)',
    srt: 'Download subtitles (.srt)',
    noNarration: 'Subtitles need a narration: this film has music or no sound.',
    zip: 'Download zip with media',
    programs: 'DaVinci Resolve opens the .otio; Premiere, Avid and Resolve read the .edl; the zip holds both with the clips and the sound beside them.',
    downloading: (done: number, count: number): string => `Downloading the media: ${done} of ${plural(count, 'file', 'files')}…`,
    progressLabel: 'Download of the media',
    zipping: 'Making the zip…',
    saved: (name: string): string => `${name} was made and handed to your browser to save.`,
    retry: 'Try again',
    cancel: 'Cancel',
    failed: (name: string, reason: string): string => `Downloading ${name} failed: ${reason}. What was downloaded is kept: try again.`,
    zipFailed: (reason: string): string => `The zip could not be made: ${reason}.`,
  },

  done: {
    heading: 'Your film is ready',
    text: 'Play it, download it, or go back to any step to change a scene and make it again.',
  },

  list: {
    heading: 'Your stories',
    loading: 'Loading your stories…',
    empty: 'No stories yet. Write your first idea above.',
    failed: 'Your stories could not be loaded.',
    open: (title: string): string => `Open ${title}`,
    untitled: 'Untitled story',
    sceneCount: (count: number): string => plural(count, 'scene', 'scenes'),
    step: (label: string): string => `At: ${label}`,
    done: 'Film made',
    coverAlt: (title: string): string => `Cover of ${title}`,
    delete: (title: string): string => `Delete ${title}`,
    deleteTitle: 'Delete this story?',
    deleteText: 'The story, its pictures, videos, sound and film are deleted for good. Anything still being made is cancelled and refunded.',
    deleteConfirm: 'Delete',
    deleteCancel: 'Keep it',
  },
} as const;
