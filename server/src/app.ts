import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import type { Agent as HttpsAgent } from 'node:https';
import helmetMiddleware, { type HelmetOptions } from 'helmet';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createHandleRegistry } from './auth/handle-registry.ts';
import type { IdentityProvider } from './auth/types.ts';
import { MULTIPART_LIMITS, type ServerRole } from './config.ts';
import { ANSWER_COMPRESSION } from './lib/compressible.ts';
import type { Database } from './db/database.ts';
import { authCheckRoutes } from './routes/auth-check.ts';
import { creditRoutes } from './routes/credits.ts';
import { HttpError } from './routes/http.ts';
import { drainRefusedBody, noStoreForSignedIn, refuseUnsafeInput } from './routes/input-guard.ts';
import { DETAILS } from './routes/messages.ts';
import { publicRoutes } from './routes/public.ts';
import { routeSchemaDetail } from './routes/route-schemas.ts';
import type { RouteDeps } from './routes/route-deps.ts';
import { registerSpa } from './routes/spa.ts';
import { createUserAuth } from './routes/user-auth.ts';
import { userRoutes } from './routes/users.ts';
import { createGuestCleanup, type GuestContentCleaner } from './scheduler/guest-cleanup.ts';
import { createInspectionRetention } from './scheduler/inspection-retention.ts';
import { serverSecret } from './db/files.ts';
import { createJobEngine, type EngineOptions } from './jobs/engine.ts';
import type { ObjectStore } from './storage/object-store.ts';
import { createFileSigner } from './jobs/file-signing.ts';
import { createFalRenderProvider, type FalProviderOptions } from './render/fal/provider.ts';
import { catalogueFor } from './render/catalogue.ts';
import { createLocalRenderEngine } from './render/local-engine.ts';
import type { RenderProvider } from './render/provider.ts';
import { batchRoutes } from './routes/batch.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes } from './routes/health.ts';
import { finetuneRoutes } from './routes/finetune.ts';
import { generationRoutes } from './routes/generation.ts';
import { inspectionRoutes } from './routes/inspection.ts';
import type { MediaRouteDeps, SyncWaitOptions } from './routes/media-deps.ts';
import { mediaRoutes } from './routes/media.ts';
import { storyRoutes } from './routes/story.ts';
import { pushRoutes } from './routes/push.ts';
import { createPushAlerts, type PushAlerts } from './push/alerts.ts';
import { loadVapidDetails, type VapidEnvironment } from './push/vapid.ts';
import { assetRoutes } from './routes/assets.ts';
import { libraryRoutes } from './routes/library.ts';
import { contentRoutes } from './routes/content.ts';
import { customerRoutes } from './routes/customers.ts';
import { localProviderPages, paymentRoutes } from './routes/payments.ts';
import { openPaymentProvider, type PaymentSettings } from './payments/select.ts';
import { textRoutes } from './routes/text.ts';
import { tutorialRoutes } from './routes/tutorial.ts';
import { uploadRoutes } from './routes/uploads.ts';

export interface AppOptions {
  db: Database;
  /**
   * What this process does (KINORA_ROLE, server/src/config.ts): `all` (the default) serves the
   * API and the SPA and renders jobs; `api` serves without rendering; `worker` renders queued jobs
   * and serves only /health.
   */
  role?: ServerRole;
  /** Who is signed in; every role but `worker` needs it. */
  identity?: IdentityProvider;
  /** The client API key `POST auth/check` requires in X-Api-Key. */
  apiKey: string;
  /** The built SPA (`dist/`), served at `/` with history fallback; omitted → API only. */
  staticDir?: string;
  /** `npm start` on a developer's machine: plain http, so no HSTS. */
  localMode: boolean;
  /** Fastify's logger option; off unless the caller asks (tests stay quiet). */
  logger?: FastifyServerOptions['logger'];
  /**
   * Run the guest account's clean-up (SPEC §6: weekly) on this schedule while the server runs;
   * omitted → not scheduled (tests that do not need it).
   */
  guestCleanup?: { intervalMs: number; cleaners?: readonly GuestContentCleaner[]; checkEveryMs?: number };
  /**
   * Delete the QA inspector's job logs past their week, and problem reports past the newest 200, on
   * this schedule (scheduler/inspection-retention.ts); omitted → not scheduled (reads still ignore
   * old logs).
   */
  inspectionRetention?: { intervalMs?: number; checkEveryMs?: number };
  /**
   * The job engine's settings (durations, failure and nsfw rates, workers); see EngineOptions. Its
   * workers start when the server is ready and stop (handing their jobs back) when it closes.
   */
  jobs?: Partial<EngineOptions>;
  /** Where media files are stored (`${dataDir}/media`); overrides `jobs.mediaDir`. */
  mediaDir?: string;
  /**
   * Where every stored file goes (server/src/storage/: main.ts opens an S3 bucket when
   * KINORA_S3_BUCKET is set); omitted → the local folder `mediaDir`.
   */
  objects?: ObjectStore;
  /** How async_mode=false requests wait (tests shorten it); see SyncWaitOptions. */
  syncWait?: Partial<SyncWaitOptions>;
  /** Which render provider makes the files (default the local engine); see RenderSettings. */
  render?: RenderSettings;
  /** Which card provider takes payments (default the local card page); see PaymentSettings. */
  payments?: PaymentSettings;
  /**
   * Done alerts (server/src/push/): KINORA_VAPID_* keys (omitted → a pair generated once and kept
   * in the database) and the https agent pushes go through (tests trust their stand-in's certificate).
   */
  push?: { vapid?: VapidEnvironment; agent?: HttpsAgent };
}

/**
 * KINORA_RENDER_PROVIDER=fal with FAL_KEY (and KINORA_FAL_QUEUE_URL for a stand-in of fal's queue):
 * generation runs on fal.ai (server/src/render/fal/provider.ts). `publicUrl` is where fal fetches
 * the signed links of Kinora's input files (KINORA_PUBLIC_URL); without one, inputs are uploaded
 * to fal's own storage.
 */
export type RenderSettings =
  | { provider: 'local' }
  | { provider: 'fal'; key: string; queueUrl?: string; publicUrl?: string; pollIntervalMs?: number; retry?: FalProviderOptions['retry'] };

/** The server_secrets row holding the key that signs file links. */
const FILE_SIGNING_SECRET = 'file-signing';

/**
 * Security headers on every response, the SPA's included (ARCHITECTURE.md §4). Scripts only from
 * this origin; styles may be inline because Mantine injects its CSS variables at run time.
 */
function contentSecurityPolicy(): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    // A help topic with a video-host link embeds it (SPEC §2.9 item 4); nothing else is framed.
    frameSrc: ['https://www.youtube-nocookie.com'],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/** JSON bodies as Fastify parses them, except that an empty body is "no body" instead of a 400. */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/** Builds the local API server: every SPEC §7 call under `/api/`, the identity front, the SPA. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const role = options.role ?? 'all';
  const identity = options.identity;
  if (role !== 'worker' && !identity) throw new Error(`a server of role "${role}" needs an identity provider`);
  const securityHeaders: HelmetOptions = {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy() },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: options.localMode ? false : undefined,
  };
  const applySecurityHeaders = helmetMiddleware(securityHeaders);
  const app = Fastify({
    logger: options.logger ?? false,
    // Fastify answers a URL it cannot even route (e.g. "/%") before any hook runs, so the
    // onRequest hook below never sees it: the same headers are set here.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      applySecurityHeaders(request.raw, reply.raw, () => {
        void reply.code(error.statusCode ?? 400).send({ detail: DETAILS.badRequest });
      });
    },
  });
  app.addHook('onRequest', (request, reply, done) => applySecurityHeaders(request.raw, reply.raw, () => done()));
  // Issue 17: control characters and deep nesting refused once for every route; no-store on private answers.
  app.addHook('preValidation', refuseUnsafeInput);
  app.addHook('onSend', noStoreForSignedIn);
  // Registered now so the upload calls of later issues share one set of limits.
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  // Issue 19: JSON answers of 1 KB or more go out compressed (brotli at quality 4, else gzip), with
  // Vary: Accept-Encoding; the built files are compressed once at build time (spa.ts), video ranges
  // and pictures never. Registered before the routes: it hooks each route as it is added.
  await app.register(compress, ANSWER_COMPRESSION);
  acceptEmptyJsonBodies(app);
  // Route schemas are zod (routes/route-schemas.ts); a route without one is not validated.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const status = error.statusCode ?? 500;
    // A refused upload is answered before its body has all arrived (too large, a file part the call
    // does not take, an anonymous sender): the rest is read and dropped, bounded, so the sender
    // gets the answer instead of a reset; a body too large for that is cut off (Connection: close).
    if (status === 413 || (status >= 400 && !request.raw.complete)) drainRefusedBody(request.raw, status, reply);
    if (error instanceof HttpError) return reply.code(error.statusCode).send({ detail: error.detail });
    const schemaDetail = routeSchemaDetail(error);
    if (schemaDetail !== null) return reply.code(400).send({ detail: schemaDetail });
    // Fastify's own 4xx (bad JSON, wrong content type, body too large) explain themselves.
    if (status >= 400 && status < 500) return reply.code(status).send({ detail: error.message });
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: DETAILS.internal });
  });

  if (identity?.routes && role !== 'worker') {
    await app.register(identity.routes, {
      handles: createHandleRegistry(options.db, (handle) => identity.handleOwner(handle)),
    });
  }

  const signer = createFileSigner(await serverSecret(options.db, FILE_SIGNING_SECRET));
  const local = createLocalRenderEngine();
  const render = options.render ?? { provider: 'local' };
  let provider: RenderProvider = local;
  if (render.provider === 'fal') {
    // Where fal fetches Kinora's signed links: the public URL when one is given; this server's own
    // address when the queue is a stand-in on this machine; else nowhere (inputs go to fal's storage).
    // A worker serves no files, so its own address is no use to fal.
    const onThisMachine = role !== 'worker' && render.queueUrl !== undefined && /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(`${render.queueUrl}/`);
    const ownOrigin = (): string => {
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('the server is not listening yet');
      return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    };
    const publicUrl = render.publicUrl?.replace(/\/+$/, '');
    const origin = publicUrl ? () => publicUrl : onThisMachine ? ownOrigin : undefined;
    provider = createFalRenderProvider({
      key: render.key,
      queueUrl: render.queueUrl,
      local,
      linkFor: origin ? (fileId) => signer.sign(origin(), fileId).url : undefined,
      pollIntervalMs: render.pollIntervalMs,
      retry: render.retry,
    });
  }
  // Every role sends Done alerts: the worker that ends a job announces it.
  const alerts = createPushAlerts({
    db: options.db,
    vapid: await loadVapidDetails(options.db, options.push?.vapid),
    logger: app.log,
    agent: options.push?.agent,
  });
  const engine = createJobEngine({
    db: options.db,
    provider,
    // The local render engine stands in for real models, so it also simulates their failures and
    // their time; a real provider's jobs take the model's own time and fail when it says so.
    options: {
      simulateFailures: true,
      ...options.jobs,
      ...(render.provider === 'local' ? {} : { simulateFailures: false, durationMs: 0 }),
      ...(options.mediaDir ? { mediaDir: options.mediaDir } : {}),
      workers: role !== 'api',
    },
    objects: options.objects,
    logger: app.log,
    onJobSettled: (jobId) => alerts.jobSettled(jobId),
  });
  app.addHook('onReady', () => engine.start());
  // Stripe charges the auto-refills debits recorded, after their transactions (payments/stripe/refills.ts).
  const payments = await openPaymentProvider(options.db, options.payments, (error, what) =>
    app.log.error({ err: error }, `${what} failed; it is tried again`),
  );
  app.addHook('onReady', () => payments.start?.());
  app.addHook('preClose', async () => payments.stop?.());
  // Before the server waits for requests in flight: an async_mode=false request stops waiting.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    await engine.stop();
    // The alerts of the last jobs go out before the database closes.
    await alerts.idle();
  });
  // Node's server.close() only ends keep-alive connections that are idle at that instant; one whose
  // response (e.g. a file stream) finishes a moment later would hold the close up until the
  // client's keep-alive timeout. Such a connection is ended as soon as its response is done.
  app.addHook('onResponse', (request, _reply, done) => {
    if (closing) request.raw.socket?.end();
    done();
  });
  await healthRoutes(app, {
    role,
    checks: {
      database: async () => {
        await options.db.query('SELECT 1');
      },
      // HeadBucket for a bucket; for the local folder, that it can be written.
      storage: () => engine.store.objects.check(),
    },
    closing: () => closing,
  });

  if (identity && role !== 'worker') {
    await registerApi(app, options, {
      db: options.db,
      identity,
      auth: createUserAuth(options.db, identity),
      apiKey: options.apiKey,
      appConfiguration: catalogueFor(provider.unavailableModels()),
      payments,
      engine,
      provider,
      signer,
      syncWait: options.syncWait,
    }, alerts);
  }

  if (options.guestCleanup) {
    const cleanup = createGuestCleanup({
      db: options.db,
      ...options.guestCleanup,
      onError: (error) => app.log.error({ err: error }, 'the guest clean-up failed; it is retried at the next check'),
    });
    app.addHook('onReady', () => cleanup.start());
    app.addHook('onClose', () => cleanup.stop());
  }
  if (options.inspectionRetention) {
    const retention = createInspectionRetention({
      db: options.db,
      ...options.inspectionRetention,
      onError: (error) => app.log.error({ err: error }, 'the inspector retention failed; it is retried at the next check'),
    });
    app.addHook('onReady', () => retention.start());
    app.addHook('onClose', () => retention.stop());
  }
  return app;
}

/** The API (every SPEC §7 call under `/api/`), the local card pages, the tutorials and the SPA: roles `api` and `all`. */
async function registerApi(app: FastifyInstance, options: AppOptions, mediaDeps: MediaRouteDeps, alerts: PushAlerts): Promise<void> {
  const deps: RouteDeps = mediaDeps;
  await app.register(
    async (api) => {
      await publicRoutes(api, deps);
      await creditRoutes(api, deps);
      await userRoutes(api, mediaDeps);
      await authCheckRoutes(api, deps);
      await mediaRoutes(api, mediaDeps);
      await fileRoutes(api, mediaDeps);
      await generationRoutes(api, mediaDeps);
      await uploadRoutes(api, mediaDeps);
      await textRoutes(api, mediaDeps);
      await batchRoutes(api, mediaDeps);
      await finetuneRoutes(api, mediaDeps);
      await storyRoutes(api, mediaDeps);
      await paymentRoutes(api, deps);
      await customerRoutes(api, deps);
      await contentRoutes(api, mediaDeps);
      await assetRoutes(api, mediaDeps);
      await libraryRoutes(api, mediaDeps);
      await inspectionRoutes(api, { ...deps, localMode: options.localMode });
      await pushRoutes(api, { ...deps, alerts });
      api.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: DETAILS.notFound }));
    },
    { prefix: '/api' },
  );

  await localProviderPages(app, deps);
  // The help topics' tutorial files live at {host}/tutorial/{file}, outside /api (SPEC §2.9 item 4).
  await tutorialRoutes(app, mediaDeps);
  await registerSpa(app, options.staticDir);
}
