import { fromHoldText } from '@/config/project-hold-texts';
/**
 * Kinora's own texts of the batch album pages (SPEC §1 "AI batch and parallax batch albums").
 * SPEC gives none of them word for word, so they live here; SPEC's own texts (the "Batch Not
 * Found" toast) are in messages.ts.
 */

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;
const pictures = (count: number): string => `${count} ${count === 1 ? 'picture' : 'pictures'}`;

export const ALBUM_TEXTS = {
  listTitle: 'Albums',
  groupLabel: 'AI Video',
  /** The link to the list, on every album page and from the group page. */
  albumsLink: 'Albums',
  intro: 'An album turns many pictures into clips at once from a script board, then joins them into one video.',
  signIn: 'Sign in to see your albums',
  yourAlbums: 'Your albums',
  empty: 'No albums yet. Create one below from your pictures.',
  loading: 'Loading your albums…',
  columns: { title: 'Title', type: 'Type', pictures: 'Pictures', created: 'Created' },
  pictureCount: pictures,
  untitled: 'Untitled album',

  create: {
    heading: 'New album',
    title: 'Title',
    titleRequired: 'Give the album a title',
    titleTooLong: (max: number): string => `At most ${max} characters`,
    type: 'Type',
    picture: (index: number): string => `Picture ${index}`,
    addPicture: 'Add another picture',
    removePicture: (index: number): string => `Remove picture ${index}`,
    picturesNeeded: (min: number, max: number): string => `Add ${min} to ${max} pictures.`,
    pictureCount: (count: number, max: number): string => `${pictures(count)} of ${max}`,
    submit: 'Create album',
  },

  album: {
    title: 'Album',
    loading: 'Loading the album…',
    notFound: 'This album does not exist, or it is not yours.',
    loadFailed: 'The album could not be loaded.',
    retry: 'Try again',
    backToAlbums: 'All albums',
    picturesHeading: 'Pictures',
    pictureAlt: (index: number): string => `Picture ${index}`,
    typeLine: (type: string, count: number): string => `${type} · ${pictures(count)}`,
    deleteButton: 'Delete album',
    deleteTitle: 'Delete this album?',
    deleteText: 'The album, its clips and its joined video are deleted for good. Clips still being made are cancelled and refunded.',
    deleteConfirm: 'Delete',
    deleteCancel: 'Keep it',
  },

  board: {
    heading: 'Script board',
    empty: 'No script board yet: write one and every picture gets a clip you can then adjust.',
    write: 'Write script board',
    rewrite: 'Write a new script board',
    writing: 'Writing the script board…',
    save: 'Save script board',
    saved: 'Saved',
    unsaved: 'Unsaved changes',
    clip: (index: number): string => `Clip ${index}`,
    prompt: 'Prompt',
    cameraMotion: 'Camera motion',
    model: 'Motion model',
    modelOption: (label: string, cost: number): string => `${label} · ${credits(cost)}`,
    clipCost: credits,
    cameraPath: 'Camera path',
    length: 'Length (seconds)',
    moveUp: (index: number): string => `Move clip ${index} up`,
    moveDown: (index: number): string => `Move clip ${index} down`,
    noBoard: 'Write a script board first.',
    promptTooLong: (clip: number): string => `The prompt of clip ${clip} is longer than 2000 characters.`,
    lengthOutOfRange: (clip: number): string => `Choose a length of 2 to 10 seconds for clip ${clip}.`,
    chooseCameraPath: (clip: number): string => `Choose a camera path for clip ${clip}.`,
    chooseCameraMotion: (clip: number): string => `Choose a camera motion for clip ${clip}.`,
    chooseModel: (clip: number): string => `Choose a motion model for clip ${clip}.`,
  },

  generate: {
    button: 'Generate videos',
    /** With a hold (issue 21 item 6): "2 clips · 40 credits · from the hold (40 left)". */
    cost: (clips: number, total: number, balance: number | null, held = 0): string =>
      `${clips} ${clips === 1 ? 'clip' : 'clips'} · ${credits(total)}${held > 0 ? fromHoldText(held) : balance === null ? '' : ` · you have ${balance}`}`,
    running: 'The videos are being made.',
    sending: 'Sending…',
    signIn: 'Sign in to generate',
  },

  clips: {
    heading: 'Videos',
    empty: 'No videos yet. Generate them from the script board.',
    label: (index: number, camera: string): string => `Clip ${index} · ${camera}`,
    progress: (label: string): string => `${label} progress`,
    paused: 'Paused while the tab is hidden',
  },

  edit: {
    heading: 'Join into one video',
    intro: 'The clips are joined in the script board’s order, then the extra videos, with the audio under them.',
    audio: 'Audio',
    currentAudio: 'Audio under the joined video',
    removeAudio: 'Remove audio',
    additionalVideo: 'Add a video',
    additionalHeading: 'Extra videos',
    additionalEmpty: 'No extra videos.',
    additionalLimit: (max: number): string => `At most ${max} extra videos.`,
    removeVideo: (label: string): string => `Remove ${label}`,
    save: 'Save audio and videos',
    join: 'Join into one video',
    joinNeedsVideos: 'Make at least one clip (or add a video) first.',
    joining: 'Joining the videos…',
    joined: 'Joined video',
    joinFailed: (error: string | null): string => (error ? `Joining failed: ${error}` : 'Joining failed.'),
    download: 'Download the joined video',
  },
} as const;
