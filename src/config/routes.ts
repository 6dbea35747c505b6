/** Every path the web app knows (SPEC §2.1, §2.3, §2.4, §2.6), spelled once. */
export const ROUTES = {
  home: '/',
  authentication: '/authentication',
  account: '/account',
  /** A user's public profile: `/@{preferred_username}`. */
  profile: (handle: string): string => `/@${handle}`,
  notFound: '/404',
  /** Kinora's pages for SPEC §1 credits, sharing, assets, organisations and contact. */
  credits: '/credits',
  latest: '/latest',
  /** One shared result (public or unlisted), viewable signed out. */
  shared: (mediaId: string): string => `/shared/${encodeURIComponent(mediaId)}`,
  assets: '/assets',
  asset: (id: string): string => `/assets/${encodeURIComponent(id)}`,
  organisation: '/organisation',
  organisationDetail: (id: string): string => `/organisation/${encodeURIComponent(id)}`,
  contact: '/contact-us',
  /** The QA machine inspector (issue 8): people in the Developer group, or any visitor in local mode. */
  inspector: '/inspector',
  /** The person's jobs from every device: search, re-run, remix (issue 21). */
  history: '/history',
  /** `?job={id}` brings that job into view on History (the Library's "Show in History"). */
  historyJob: (mediaId: string): string => `/history?job=${encodeURIComponent(mediaId)}`,
  /** The person's finished results from every tool, with folders (issue 21 item 7); `?item={id}` brings one into view. */
  library: '/library',
  libraryItem: (mediaId: string): string => `/library?item=${encodeURIComponent(mediaId)}`,
  aiAudio: {
    root: '/ai-audio/',
    textToSpeech: '/ai-audio/text-to-speech',
    textToAudio: '/ai-audio/text-to-audio',
    textToMusic: '/ai-audio/text-to-music',
    uploadAudio: '/ai-audio/upload-audio',
  },
  aiImage: {
    root: '/ai-image/',
    textToImage: '/ai-image/text-to-image',
    imageToImage: '/ai-image/image-to-image',
    faceSwap: '/ai-image/face-swap',
    tryOn: '/ai-image/try-on',
    imageElements: '/ai-image/image-elements',
    replaceBackground: '/ai-image/replace-background',
    editImage: '/ai-image/edit-image',
    restyle: '/ai-image/restyle',
    /** Not in the menu (SPEC §2.3 has no link); reached from Image to Image. */
    reimagine: '/ai-image/reimagine',
    /** Upload tools (SPEC §2.5); linked from the group pages and every tool's picture input. */
    uploadImage: '/ai-image/upload-image',
  },
  aiVideo: {
    root: '/ai-video/',
    aiMotion: '/ai-video/ai-motion',
    parallaxMotion: '/ai-video/parallax-motion',
    characterAnimate: '/ai-video/character-animate',
    tryOn: '/ai-video/try-on',
    editVideo: '/ai-video/edit-video',
    videoEffects: '/ai-video/video-effects',
    lipSync: '/ai-video/lip-sync',
    replaceBackgroundVideo: '/ai-video/replace-background-video',
    modifyVideo: '/ai-video/modify-video',
    /** Upload tools (SPEC §2.5); linked from the group page and every video input. */
    uploadVideo: '/ai-video/upload-video',
    /** Kinora's pages for SPEC §1 "AI batch and parallax batch albums" (no menu link in SPEC §2.3). */
    albums: '/ai-video/albums',
    album: (id: string): string => `/ai-video/albums/${encodeURIComponent(id)}`,
  },
  aiProduction: {
    root: '/ai-production/',
    aiStory: '/ai-production/ai-story',
    /** Kinora's: one story of AI Story, resumed at the step the person was on. */
    story: (id: string): string => `/ai-production/ai-story/${encodeURIComponent(id)}`,
    finetune: '/ai-production/finetune',
  },
  useCases: {
    branding: '/use-cases/branding',
    ecommerce: '/use-cases/ecommerce',
    photography: '/use-cases/photography',
    restaurants: '/use-cases/restaurants',
  },
  /** Served by the local API server in local mode only, never by the SPA router. */
  localMailbox: '/local/mailbox',
} as const;

const PROFILE_PREFIX = '/@';

/**
 * The handle in a profile path (`/@ada` → `ada`), or null for any other path and for a handle
 * whose percent-encoding is malformed.
 * Router path patterns cannot express a segment that starts with "@", so the shell matches it here.
 */
export function profileHandleFromPath(pathname: string): string | null {
  if (!pathname.startsWith(PROFILE_PREFIX)) return null;
  const handle = pathname.slice(PROFILE_PREFIX.length).replace(/\/$/, '');
  if (handle === '' || handle.includes('/')) return null;
  try {
    return decodeURIComponent(handle);
  } catch {
    // A malformed escape such as `/@%E0%A4%A` is not a handle: the caller shows the not-found page.
    return null;
  }
}
