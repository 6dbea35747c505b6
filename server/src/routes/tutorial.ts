import type { FastifyInstance } from 'fastify';
import { HELP_TOPICS } from '../../../src/config/help-topics.ts';
import { createTutorialVideoCache, TUTORIAL_FILE, type TutorialClip } from '../render/tutorial-video.ts';
import { sendPublicVideo } from './files.ts';
import { HttpError } from './http.ts';
import type { MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';

/** Every tutorial file the help topics name (SPEC §2.10), by file name. */
function tutorialClips(): ReadonlyMap<string, TutorialClip> {
  const clips = new Map<string, TutorialClip>();
  for (const topic of HELP_TOPICS) {
    if (topic.video_desktop) clips.set(topic.video_desktop, { file: topic.video_desktop, title: topic.title, device: 'desktop' });
    if (topic.video_mobile) clips.set(topic.video_mobile, { file: topic.video_mobile, title: topic.title, device: 'mobile' });
  }
  return clips;
}

/**
 * GET /tutorial/{file} (no auth, outside /api: the help popover loads `{host}/tutorial/{file}` and
 * `{host}` is the app's own origin when VITE_MEDIA_HOST is empty): the tutorial MP4 of a help
 * topic, rendered by the local render engine the first time it is asked for and served from the
 * cache afterwards, with byte ranges (video players seek). Files no topic names are 404.
 */
export async function tutorialRoutes(app: FastifyInstance, { engine, provider }: Pick<MediaRouteDeps, 'engine' | 'provider'>): Promise<void> {
  const cache = createTutorialVideoCache(engine.store.objects, provider);
  const clips = tutorialClips();

  app.get<{ Params: { file: string } }>('/tutorial/:file', async (request, reply) => {
    const clip = clips.get(request.params.file);
    if (!clip || !TUTORIAL_FILE.test(clip.file)) throw new HttpError(404, DETAILS.notFound);
    const key = await cache.videoKey(clip);
    return sendPublicVideo(request, reply, engine.store.objects, key);
  });
}
