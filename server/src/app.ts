import multipart from '@fastify/multipart';
import helmetMiddleware, { type HelmetOptions } from 'helmet';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { createHandleRegistry } from './auth/handle-registry.ts';
import type { IdentityProvider } from './auth/types.ts';
import { MULTIPART_LIMITS } from './config.ts';
import type { Database } from './db/database.ts';
import { authCheckRoutes } from './routes/auth-check.ts';
import { creditRoutes } from './routes/credits.ts';
import { HttpError } from './routes/http.ts';
import { DETAILS } from './routes/messages.ts';
import { publicRoutes } from './routes/public.ts';
import type { RouteDeps } from './routes/route-deps.ts';
import { registerSpa } from './routes/spa.ts';
import { createUserAuth } from './routes/user-auth.ts';
import { userRoutes } from './routes/users.ts';
import { createGuestCleanup, type GuestContentCleaner } from './scheduler/guest-cleanup.ts';

export interface AppOptions {
  db: Database;
  identity: IdentityProvider;
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
}

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
  // Registered now so the upload calls of later issues share one set of limits.
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  acceptEmptyJsonBodies(app);

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).send({ detail: error.detail });
    const status = error.statusCode ?? 500;
    // Fastify's own 4xx (bad JSON, wrong content type, body too large) explain themselves.
    if (status >= 400 && status < 500) return reply.code(status).send({ detail: error.message });
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: DETAILS.internal });
  });

  if (options.identity.routes) {
    await app.register(options.identity.routes, {
      handles: createHandleRegistry(options.db, (handle) => options.identity.handleOwner(handle)),
    });
  }

  const deps: RouteDeps = {
    db: options.db,
    identity: options.identity,
    auth: createUserAuth(options.db, options.identity),
    apiKey: options.apiKey,
  };
  await app.register(
    async (api) => {
      await publicRoutes(api, deps);
      await creditRoutes(api, deps);
      await userRoutes(api, deps);
      await authCheckRoutes(api, deps);
      api.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: DETAILS.notFound }));
    },
    { prefix: '/api' },
  );

  await registerSpa(app, options.staticDir);

  if (options.guestCleanup) {
    const cleanup = createGuestCleanup({
      db: options.db,
      ...options.guestCleanup,
      onError: (error) => app.log.error({ err: error }, 'the guest clean-up failed; it is retried at the next check'),
    });
    app.addHook('onReady', () => cleanup.start());
    app.addHook('onClose', () => cleanup.stop());
  }
  return app;
}
