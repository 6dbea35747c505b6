import { ROUTES } from './routes';

/** Ways a video can be created (SPEC §2.4); the ribbon label marks results of each type. */
export const CREATION_TYPES = [
  { type: 'ai-motion', route: ROUTES.aiVideo.aiMotion, ribbonLabel: 'AI-motion' },
  { type: 'parallax-motion', route: ROUTES.aiVideo.parallaxMotion, ribbonLabel: 'Parallax' },
  { type: 'try-on', route: ROUTES.aiVideo.tryOn, ribbonLabel: 'Try-on' },
  { type: 'character-animate', route: ROUTES.aiVideo.characterAnimate, ribbonLabel: 'Character' },
  // Extending a video happens from an existing result: it has no page and no ribbon.
  { type: 'extend-video', route: null, ribbonLabel: null },
] as const satisfies readonly { type: string; route: string | null; ribbonLabel: string | null }[];

export type CreationType = (typeof CREATION_TYPES)[number]['type'];

export function ribbonLabelFor(type: CreationType): string | null {
  return CREATION_TYPES.find((candidate) => candidate.type === type)?.ribbonLabel ?? null;
}
