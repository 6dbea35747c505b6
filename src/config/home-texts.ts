/** The home page's words (SPEC §2.1), shared with the Lighthouse bench's reference page (bench/reference). */
export const HOME_TEXTS = {
  tagline: 'Create images, video and audio with many generative models, and pay only for what you generate, with credits.',
  abilities: [
    'Generate images from a text prompt, or restyle, edit and merge the images you upload.',
    'Turn pictures into video with parallax camera motion or AI motion, then edit, extend and restyle it.',
    'Create speech, sound effects and music from text.',
    'Plan whole stories from an idea through a storyboard, and fine-tune models of your own.',
  ],
} as const;
