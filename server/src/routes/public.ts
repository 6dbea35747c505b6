import type { FastifyInstance } from 'fastify';
import type { PromoVideo } from '../../../src/services/schemas/promo-videos.ts';
import { findPromoVideo, listPromoVideos } from '../db/promo-videos.ts';
import { escapeMarkup } from '../lib/escape-markup.ts';
import { createPromoVideoCache } from '../render/promo-video.ts';
import { sendPublicVideo } from './files.ts';
import { HttpError, ok } from './http.ts';
import type { MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import type { RouteDeps } from './route-deps.ts';

/** A poster for a promo video, drawn from its title so the reel has a real image to show. */
function promoThumbnailSvg(title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3b1d8f"/><stop offset="1" stop-color="#0f766e"/></linearGradient></defs>
<rect width="640" height="360" fill="url(#g)"/>
<circle cx="320" cy="150" r="44" fill="#ffffff" fill-opacity="0.9"/>
<path d="M306 128 L344 150 L306 172 Z" fill="#3b1d8f"/>
<text x="320" y="260" text-anchor="middle" font-family="sans-serif" font-size="34" fill="#ffffff">${escapeMarkup(title)}</text>
</svg>`;
}

/** The calls SPEC §6 lists as public: no Authorization needed. */
export async function publicRoutes(app: FastifyInstance, { db, appConfiguration }: RouteDeps): Promise<void> {
  app.get('/health', async () => ok({ ok: true as const }));

  app.get('/frontend-configurations', async () => ok(appConfiguration));

  app.get('/promo-videos', async (): Promise<{ data: PromoVideo[] }> => ok(await listPromoVideos(db)));

  app.get<{ Params: { id: string } }>('/promo-videos/:id/thumbnail.svg', async (request, reply) => {
    const video = await findPromoVideo(db, request.params.id);
    if (!video) throw new HttpError(404, DETAILS.notFound);
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(promoThumbnailSvg(video.title));
  });
}

/**
 * GET promo-videos/{id}/video.mp4 (no auth): the promo's short clip, rendered from its poster by
 * the local render engine the first time it is asked for and served from the cache afterwards
 * (with byte ranges, as video players seek). Registered by the content routes, which are given
 * the render engine.
 */
export async function promoVideoRoutes(app: FastifyInstance, { db, engine, provider }: MediaRouteDeps): Promise<void> {
  const cache = createPromoVideoCache(engine.store.objects, provider);

  app.get<{ Params: { id: string } }>('/promo-videos/:id/video.mp4', async (request, reply) => {
    const video = await findPromoVideo(db, request.params.id);
    if (!video || !/^[A-Za-z0-9_-]{1,64}$/.test(video.id)) throw new HttpError(404, DETAILS.notFound);
    const key = await cache.videoKey(video.id, promoThumbnailSvg(video.title));
    return sendPublicVideo(request, reply, engine.store.objects, key);
  });
}
