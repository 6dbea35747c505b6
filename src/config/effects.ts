import { MODEL_COSTS } from './model-costs';
import type { Flag } from './tools';

/** One effect of a video-effect family; `end_frame: 1` means it needs a second picture. */
export interface VideoEffect {
  label: string;
  value: string;
  end_frame?: Flag;
}

const effect = (value: string, label: string, end_frame?: Flag): VideoEffect =>
  end_frame === undefined ? { label, value } : { label, value, end_frame };

/** Pika's Pikaffects (SPEC §9: 16 effects). */
export const PIKA_EFFECTS: readonly VideoEffect[] = [
  effect('cake-ify', 'Cake-ify'),
  effect('crumble', 'Crumble'),
  effect('crush', 'Crush'),
  effect('decapitate', 'Decapitate'),
  effect('deflate', 'Deflate'),
  effect('dissolve', 'Dissolve'),
  effect('explode', 'Explode'),
  effect('eye-pop', 'Eye-pop'),
  effect('inflate', 'Inflate'),
  effect('levitate', 'Levitate'),
  effect('melt', 'Melt'),
  effect('peel', 'Peel'),
  effect('poke', 'Poke'),
  effect('squish', 'Squish'),
  effect('ta-da', 'Ta-da'),
  effect('tear', 'Tear'),
];

/** Wan effect templates (SPEC §9: 18 effects). */
export const WAN_EFFECTS: readonly VideoEffect[] = [
  effect('squish', 'Squish'),
  effect('muscle', 'Muscle'),
  effect('inflate', 'Inflate'),
  effect('crush', 'Crush'),
  effect('rotate', 'Rotate'),
  effect('gun-shooting', 'Gun Shooting'),
  effect('deflate', 'Deflate'),
  effect('cakeify', 'Cakeify'),
  effect('hulk', 'Hulk'),
  effect('baby', 'Baby'),
  effect('bride', 'Bride'),
  effect('classy', 'Classy'),
  effect('puppy', 'Puppy'),
  effect('snow-white', 'Snow White'),
  effect('disney-princess', 'Disney Princess'),
  effect('mona-lisa', 'Mona Lisa'),
  effect('painting', 'Painting'),
  effect('pirate-captain', 'Pirate Captain'),
];

/** Kling effects (SPEC §9): the two-person ones need an end frame with the second person. */
export const KLING_EFFECTS: readonly VideoEffect[] = [
  effect('hug', 'Hug', 1),
  effect('heart_gesture', 'Heart Gesture', 1),
  effect('kiss', 'Kiss', 1),
  effect('squish', 'Squish'),
  effect('expansion', 'Expansion'),
  effect('fuzzyfuzzy', 'Fuzzy Fuzzy'),
];

/** Vidu templates (SPEC §9: 39 effects); smooth_shift and ai_outfit need an end frame. */
export const VIDU_EFFECTS: readonly VideoEffect[] = [
  effect('minecraft', 'Minecraft'),
  effect('box_me', 'Box Me'),
  effect('ghibli', 'Ghibli'),
  effect('spin360', 'Spin 360'),
  effect('zoom_in', 'Zoom In'),
  effect('smooth_shift', 'Smooth Shift', 1),
  effect('ai_outfit', 'AI Outfit', 1),
  effect('hug', 'Hug'),
  effect('kiss', 'Kiss'),
  effect('love_pose', 'Love Pose'),
  effect('blow_kiss', 'Blow Kiss'),
  effect('bodyshake', 'Body Shake'),
  effect('subject_3', 'Subject 3 Dance'),
  effect('pubg_winner_hit', 'PUBG Winner Hit'),
  effect('exotic_princess', 'Exotic Princess'),
  effect('beast_companion', 'Beast Companion'),
  effect('cartoon_doll', 'Cartoon Doll'),
  effect('dreamy_wedding', 'Dreamy Wedding'),
  effect('romantic_lift', 'Romantic Lift'),
  effect('sweet_proposal', 'Sweet Proposal'),
  effect('couple_arrival', 'Couple Arrival'),
  effect('cupid_arrow', 'Cupid Arrow'),
  effect('pet_lovers', 'Pet Lovers'),
  effect('live_photo', 'Live Photo'),
  effect('emotionlab', 'Emotion Lab'),
  effect('muscling', 'Muscling'),
  effect('french_kiss', 'French Kiss'),
  effect('balloon_flyaway', 'Balloon Fly Away'),
  effect('flying', 'Flying'),
  effect('lego', 'Lego'),
  effect('squish', 'Squish'),
  effect('inflate', 'Inflate'),
  effect('melt', 'Melt'),
  effect('crush', 'Crush'),
  effect('explode', 'Explode'),
  effect('snow_white', 'Snow White'),
  effect('cyberpunk_me', 'Cyberpunk Me'),
  effect('figurine', '3D Figurine'),
  effect('anime_me', 'Anime Me'),
];

/** Pixverse effects are addressed by numeric template ids (SPEC §9: 17 effects). */
export const PIXVERSE_EFFECTS: readonly VideoEffect[] = [
  effect('308621408717184', 'Kiss Me AI'),
  effect('308625212553792', 'Hug Your Love'),
  effect('310024471744896', 'Muscle Surge'),
  effect('312287064571904', 'Zombie Mode'),
  effect('313358700761536', 'Venom'),
  effect('313555098280384', 'Holy Wings'),
  effect('314136413757504', 'Earth Zoom'),
  effect('315446315336768', 'Squish It'),
  effect('316826014376384', 'Microwave'),
  effect('318107580694592', 'Suit Swagger'),
  effect('319533264435840', 'Liquid Metal'),
  effect('320945783279744', 'Balloon Belly'),
  effect('322187219447232', 'Leggy Run'),
  effect('323544703627840', 'Hulk Smash'),
  effect('324641581197696', "Let's Dance!"),
  effect('325892476610624', 'Disney Princess'),
  effect('327011350902976', 'Warrior Armor'),
];

export const EFFECT_FAMILIES = ['PikaEffects', 'WanEffects', 'KlingEffects', 'ViduEffects', 'PixverseEffects'] as const;
export type EffectFamily = (typeof EFFECT_FAMILIES)[number];

export interface EffectFamilyInfo {
  value: EffectFamily;
  label: string;
  required_credits: number;
  effects: readonly VideoEffect[];
}

export const VIDEO_EFFECT_FAMILIES: Readonly<Record<EffectFamily, EffectFamilyInfo>> = {
  PikaEffects: { value: 'PikaEffects', label: 'Pika Effects', required_credits: MODEL_COSTS.PikaEffects, effects: PIKA_EFFECTS },
  WanEffects: { value: 'WanEffects', label: 'Wan Effects', required_credits: MODEL_COSTS.WanEffects, effects: WAN_EFFECTS },
  KlingEffects: { value: 'KlingEffects', label: 'Kling Effects', required_credits: MODEL_COSTS.KlingEffects, effects: KLING_EFFECTS },
  ViduEffects: { value: 'ViduEffects', label: 'Vidu Effects', required_credits: MODEL_COSTS.ViduEffects, effects: VIDU_EFFECTS },
  PixverseEffects: {
    value: 'PixverseEffects',
    label: 'Pixverse Effects',
    required_credits: MODEL_COSTS.PixverseEffects,
    effects: PIXVERSE_EFFECTS,
  },
};
