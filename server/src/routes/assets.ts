import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ASSETS_MAX } from '../../../src/config/assets.ts';
import { assetWriteSchema, type Asset, type AssetList } from '../../../src/services/schemas/assets.ts';
import {
  countOwnAssets,
  deleteAsset,
  findOwnAsset,
  insertAsset,
  listAssetMedia,
  listOwnAssets,
  setAssetMedia,
  updateAsset,
  type AssetRow,
} from '../db/assets.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { mediaAnswers, type LinkMaker } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';

/** Most media GET asset/{id} answers with (as many as PUT may attach). */
const ASSET_MEDIA_MAX = 500;

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/** The cover: the newest attached finished picture's or video's thumbnail (a picture's own file when it has none). */
function coverUrl(row: AssetRow, links: LinkMaker): string | null {
  const item = row.cover_items?.find((candidate) => candidate.status === 'success' && candidate.file_id);
  if (!item) return null;
  const fileId = item.thumbnail_file_id ?? (row.cover_kind === 'image' ? item.file_id : null);
  return fileId ? links.signer.sign(links.origin, fileId).url : null;
}

function toAsset(row: AssetRow, links: LinkMaker): Asset {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    fields: row.fields,
    media_count: row.media_count,
    cover_url: coverUrl(row, links),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Whether GET asset/{id}?fields= asks for the media (no `fields` → yes). */
const wantsMedia = (fields: string | undefined): boolean =>
  fields === undefined || fields.trim() === '' || fields.split(',').some((field) => field.trim() === 'media');

/** SPEC §7 asset calls: the signed-in person's named collections of media. */
export async function assetRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, signer } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  async function answer(request: FastifyRequest, id: string, userSub: string, withMedia: boolean): Promise<Asset> {
    const row = await findOwnAsset(db, id, userSub);
    if (!row) throw new HttpError(404, DETAILS.assetNotFound);
    const links = linksFor(request);
    const asset = toAsset(row, links);
    if (!withMedia) return asset;
    return { ...asset, media: await mediaAnswers(db, await listAssetMedia(db, id, userSub, ASSET_MEDIA_MAX), links) };
  }

  app.get('/asset', async (request): Promise<{ data: AssetList }> => {
    const user = await auth.requireUser(request);
    const links = linksFor(request);
    return ok({ items: (await listOwnAssets(db, user.sub)).map((row) => toAsset(row, links)) });
  });

  app.post('/asset', async (request, reply): Promise<{ data: Asset }> => {
    const user = await auth.requireUser(request);
    const write = parseInput(assetWriteSchema, request.body);
    if ((await countOwnAssets(db, user.sub)) >= ASSETS_MAX) throw new HttpError(409, DETAILS.tooManyAssets(ASSETS_MAX));
    const id = await db.transaction(async (tx) => {
      const created = await insertAsset(tx, user.sub, write);
      if (write.media_ids) {
        const unknown = await setAssetMedia(tx, created, user.sub, write.media_ids);
        if (unknown.length > 0) throw new HttpError(400, DETAILS.assetMediaUnknown(unknown));
      }
      return created;
    });
    reply.code(201);
    return ok(await answer(request, id, user.sub, false));
  });

  app.get<{ Params: { id: string }; Querystring: { fields?: string } }>('/asset/:id', async (request): Promise<{ data: Asset }> => {
    const user = await auth.requireUser(request);
    return ok(await answer(request, request.params.id, user.sub, wantsMedia(request.query.fields)));
  });

  app.put<{ Params: { id: string } }>('/asset/:id', async (request): Promise<{ data: Asset }> => {
    const user = await auth.requireUser(request);
    const write = parseInput(assetWriteSchema, request.body);
    const { id } = request.params;
    await db.transaction(async (tx) => {
      if (!(await updateAsset(tx, id, user.sub, write))) throw new HttpError(404, DETAILS.assetNotFound);
      if (!write.media_ids) return;
      const unknown = await setAssetMedia(tx, id, user.sub, write.media_ids);
      if (unknown.length > 0) throw new HttpError(400, DETAILS.assetMediaUnknown(unknown));
    });
    return ok(await answer(request, id, user.sub, write.media_ids !== undefined));
  });

  app.delete<{ Params: { id: string } }>('/asset/:id', async (request): Promise<{ data: { id: string; deleted: true } }> => {
    const user = await auth.requireUser(request);
    const removed = await db.transaction((tx) => deleteAsset(tx, request.params.id, user.sub));
    if (!removed) throw new HttpError(404, DETAILS.assetNotFound);
    return ok({ id: request.params.id, deleted: true as const });
  });
}
