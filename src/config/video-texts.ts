/**
 * Kinora's own texts of the video creation pages (AI Motion, Parallax Motion, Try On Video,
 * Character Animate, Extend Video). SPEC gives none of these word for word, so they live here
 * rather than in `messages.ts`; the option labels (motion models, camera motions, camera paths,
 * motion modes) come from their config modules.
 */

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;
const videos = (count: number): string => `${count} ${count === 1 ? 'video' : 'videos'}`;

export const VIDEO_TEXTS = {
  /** The page title when AI Motion extends a video (`?extend=`). */
  extendTitle: 'Extend Video',
  mode: 'Start from',
  model: 'Motion model',
  cameraMotion: 'Camera motion',
  /** Under the camera motion select: what the prompt will say with the motion's text appended. */
  promptPreview: (prompt: string): string => `Prompt sent: ${prompt}`,
  promptPreviewEmpty: 'The chosen camera motion adds nothing to the prompt.',
  prompt: 'Prompt',
  promptPlaceholder: 'Describe the motion and the scene',
  strength: 'Strength',
  strengthHelp: 'Towards the picture keeps it closer to the picture; towards the text follows the prompt more.',
  strengthPicture: 'Picture',
  strengthText: 'Text',
  strengthValue: (text: number): string => `${100 - text}% picture · ${text}% text`,
  aspectRatio: 'Aspect ratio',
  motionAmount: 'Motion amount',
  motionLength: 'Length (seconds)',
  quantity: 'Videos',
  quantityPerPath: 'Videos per camera path',
  loop: 'Loop (the video ends where it starts)',
  cameraPaths: 'Camera paths',
  /** SPEC §2.10 topic 0: "each selected motion creates one video". */
  cameraPathsNote: 'Each selected camera path makes one video.',
  pickCameraPath: 'Choose at least one camera path.',
  /** Picture and video inputs. */
  picture: 'Picture',
  firstFrame: 'First frame',
  endFrame: 'End frame',
  composerPicture: (index: number): string => `Picture ${index}`,
  composerNote: (min: number, max: number): string =>
    `The video moves through the pictures in this order (${min} to ${max} pictures).`,
  addComposerPicture: 'Add a picture',
  removePicture: (label: string): string => `Remove ${label}`,
  personPicture: 'Person picture',
  clothesPicture: 'Clothes picture',
  characterPicture: 'Character picture',
  drivingVideo: 'Driving video',
  drivingVideoHelp: 'The character moves the way this video moves.',
  addPicture: (label: string): string => `Add the ${label.toLowerCase()}`,
  addVideo: (label: string): string => `Add the ${label.toLowerCase()}`,
  endFrameModelsOnly: 'Only the models that take an end frame are listed.',
  between: (min: number, max: number): string => `Choose a number from ${min} to ${max}.`,
  tooManyVideos: (max: number): string => `At most ${max} videos per job: choose fewer camera paths or fewer videos.`,
  /** "2 videos × 20 credits = 40 credits". */
  cost: (count: number, perVideo: number): string => `${videos(count)} × ${credits(perVideo)} = ${credits(count * perVideo)}`,
  balance: (balance: number): string => `You have ${credits(balance)}`,
  /** The results heading of the extended videos, listed under AI Motion. */
  extendedResults: 'Extended videos',
  /** Extend Video. */
  sourceHeading: 'Video to extend',
  sourceLoading: 'Loading the video…',
  sourceFailed: (error: string): string => `The video could not be loaded: ${error}`,
  sourceUnavailable: 'This result has no video to extend.',
  sourceMissing: 'Load the video to extend first.',
  sourceRetry: 'Try again',
  sourceSignIn: 'Sign in to extend one of your videos.',
  sourceLabel: (label: string): string => `Video to extend: ${label}`,
  /** AI Motion from a picture result ("Use in a tool", `?image=`). */
  pictureSourceLoading: 'Loading the picture…',
  pictureSourceFailed: (error: string): string => `The picture could not be loaded: ${error}`,
  pictureSourceUnavailable: 'This result has no picture to animate.',
  frameSelection: 'Continue from',
  frameSelectionHelp: {
    Last: 'The new clip starts from the last frame and is added after the video.',
    First: 'The new clip leads into the first frame and is added before the video.',
  },
  frameSelectionLabels: { First: 'First frame', Last: 'Last frame' },
} as const;
