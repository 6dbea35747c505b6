/**
 * Kinora's own texts of the LoRA Finetune page and of the trained models offered on the image
 * tools. SPEC gives the page's rules (§5 image counts, §9 costs and training times) but not these
 * words, so they live here rather than in `messages.ts`.
 */

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;
const pictures = (count: number): string => `${count} ${count === 1 ? 'picture' : 'pictures'}`;
const pairs = (count: number): string => `${count} ${count === 1 ? 'pair' : 'pairs'}`;

export const FINETUNE_TEXTS = {
  title: 'LoRA Finetune',
  intro: 'Train a model on your own pictures, then pick it on the image tools like any other model.',

  kind: 'Kind of model',
  kindOption: (label: string, cost: number): string => `${label} · ${credits(cost)}`,
  /** SPEC §5 image rule and §9 training time of a kind. */
  kindRuleImages: (min: number, max: number, minutes: number): string =>
    `${min}–${max} pictures · training takes about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
  kindRulePairs: (min: number, max: number, minutes: number): string =>
    `${min}–${max} input/output picture pairs and a prompt · training takes about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
  expectedTime: (minutes: number): string => `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,

  name: 'Model name',
  nameDescription: 'How the model lists on the image tools call it.',
  enterName: 'Enter a name for your model',
  nameTooLong: (max: number): string => `The name can be at most ${max} characters.`,
  triggerWord: 'Trigger word',
  triggerWordDescription: 'Optional: a word that calls up what the model learnt when you put it in a prompt.',
  triggerWordTooLong: (max: number): string => `The trigger word can be at most ${max} characters.`,

  picturesHeading: 'Pictures',
  picture: (index: number): string => `Picture ${index}`,
  addPicture: 'Add a picture',
  removePicture: (index: number): string => `Remove picture ${index}`,
  pictureCount: (count: number, min: number, max: number): string => `${count} of ${min}–${max} pictures`,
  picturesRange: (min: number, max: number): string => `Add ${min} to ${max} pictures.`,

  pairsHeading: 'Picture pairs',
  pairsDescription: 'Each pair shows a picture before (input) and after (output) the change the model should learn.',
  pairInput: (index: number): string => `Pair ${index} input`,
  pairOutput: (index: number): string => `Pair ${index} output`,
  addPair: 'Add a pair',
  removePair: (index: number): string => `Remove pair ${index}`,
  pairCount: (count: number, min: number, max: number): string => `${count} of ${min}–${max} pairs`,
  pairsRange: (min: number, max: number): string => `Add ${min} to ${max} pairs.`,
  pairIncomplete: (index: number): string => `Add both pictures of pair ${index}.`,

  prompt: 'Prompt',
  promptDescription: 'What the pairs teach, e.g. "turn the photo into a pencil sketch".',
  enterPrompt: 'Describe what the pairs teach',

  cost: (cost: number, balance: number | null): string =>
    balance === null ? `Costs ${credits(cost)}` : `Costs ${credits(cost)} · you have ${balance}`,
  generate: 'Generate',
  submitted: 'Sent. Follow the training in the jobs panel and under "Your models".',
  /** The job's option label in the jobs panel and its toast. */
  jobLabel: (name: string, kindLabel: string): string => `${name} (${kindLabel})`,

  modelsHeading: 'Your models',
  modelsEmpty: 'You have not trained a model yet. The models you train appear here.',
  modelsSignedOut: 'Sign in to train models and see yours here.',
  modelsLoading: 'Loading your models…',
  modelsRetry: 'Try again',
  training: 'Training…',
  trainingProgress: (progress: number): string => `Training… ${Math.round(progress)} %`,
  ready: 'Ready',
  failed: 'Failed',
  previewAlt: (name: string): string => `Sample of ${name}`,
  triggerWordShown: (word: string): string => `Trigger word: ${word}`,
  imageCount: (count: number, paired: boolean): string => (paired ? pairs(count / 2) : pictures(count)),
  useInTextToImage: 'Use in Text to Image',
  useInImageToImage: 'Use in Image to Image',

  /** How a trained model is named in a tool's model list. */
  modelOptionLabel: (name: string): string => `${name} (your model)`,
} as const;
