import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { FAL_MODELS, FAL_TEXT_CALL, FAL_VISION_CALL } from '../../server/src/render/fal/models.ts';
import type { FalCall, FalOutputKind } from '../../server/src/render/fal/types.ts';
import { fetchLink, fetchWorked, linksIn, type InputFetch } from './input-links.ts';
import { OutputFiles, outputFor } from './outputs.ts';

/**
 * A local stand-in of fal.ai's queue HTTP API (https://queue.fal.run), written from fal's public
 * docs, for tests and local runs of Kinora's fal provider, which rewrites
 * `https://queue.fal.run/<path>` to `<KINORA_FAL_QUEUE_URL>/<path>`; so fal's queue paths are
 * served at the root here. The docs followed:
 *  - Queue API: https://fal.ai/docs/documentation/model-apis/inference/queue and
 *    https://docs.fal.ai/model-endpoints/queue (endpoints, submit answer, status shapes, logs=1);
 *  - Inference API rules: https://fal.ai/docs/api-reference/inference-api (Authorization: Key …;
 *    status/result/cancel use only owner/app; status answers 202 while queued or running and 200
 *    once complete);
 *  - Result: https://fal.ai/docs/inference-api/queue/result (the model's own error is returned);
 *  - Cancel: https://fal.ai/docs/inference-api/queue/cancel (CANCELLATION_REQUESTED,
 *    ALREADY_COMPLETED, NOT_FOUND);
 *  - Errors: https://fal.ai/docs/model-apis/errors (422 `detail: [{ loc, msg, type }]`) and
 *    https://fal.ai/docs/documentation/model-apis/request-errors (`{ detail, error_type }`,
 *    X-Fal-Error-Type; `client_cancelled` for a cancelled request).
 * What `@fal-ai/client` 1.10 calls was read from its `queue.js` / `request.js` / `response.js` /
 * `retry.js`: it retries 429/502/503/504 (and 500 for status) itself, with its own backoff.
 */

export type QueueStage = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED';

export interface Submission {
  requestId: string;
  /** The full endpoint id, path included (`fal-ai/flux-pro/v1.1`). */
  endpointId: string;
  input: Record<string, unknown>;
  authorization: string;
  /** The `fal_webhook` query parameter, if any. */
  webhook: string | null;
  at: number;
}

export interface StatusCall {
  requestId: string;
  logs: boolean;
  /** The HTTP status answered. */
  status: number;
  stage: QueueStage | null;
  at: number;
}

export interface ResultCall {
  requestId: string;
  status: number;
  at: number;
}

export interface Cancellation {
  requestId: string;
  status: number;
  answer: string;
  at: number;
}

/** A queue call answered with a forced failure (`failNext`). */
export interface Rejection {
  method: string;
  path: string;
  status: number;
  at: number;
}

export interface FalStandInOptions {
  /** 0 (default) takes a free port. */
  port?: number;
  /** Status polls a request spends IN_QUEUE then IN_PROGRESS before COMPLETED (default 2: one each). */
  stepsToComplete?: number;
  /** An endpoint's output kind; consulted before Kinora's fal model map. Undefined: not an endpoint. */
  outputKindOf?: (endpointId: string) => FalOutputKind | undefined;
  /** One line per submission (the CLI prints them). */
  log?: (line: string) => void;
  /** How long one input download may take. */
  fetchTimeoutMs?: number;
}

export interface FalStandIn {
  /** `http://127.0.0.1:<port>`: the value of KINORA_FAL_QUEUE_URL. */
  url: string;
  stop(): Promise<void>;
  readonly submissions: readonly Submission[];
  readonly statusCalls: readonly StatusCall[];
  readonly resultCalls: readonly ResultCall[];
  readonly cancellations: readonly Cancellation[];
  readonly rejections: readonly Rejection[];
  /** Every link of every finished request's input, fetched before it answered COMPLETED. */
  readonly inputFetches: readonly InputFetch[];
  /** Applies to requests submitted from now on. */
  stepsToComplete: number;
  /** The next `count` queue calls (any path but /files) answer `status` (429 with Retry-After). */
  failNext(count: number, status: 429 | 500 | 502 | 503 | 504): void;
  /** Keeps a request (or every request, present and future) from going past `stage` until released. */
  hold(requestId: string | 'all', stage?: 'IN_QUEUE' | 'IN_PROGRESS'): void;
  release(requestId: string | 'all'): void;
  /** The stage a request is in now (null for an unknown id). */
  stageOf(requestId: string): QueueStage | null;
  /** Resolves once `check()` holds; checked now and after every call the stand-in answers. */
  until(check: () => boolean, timeoutMs?: number): Promise<void>;
}

const DEFAULT_STEPS = 2;
const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
const DEFAULT_UNTIL_TIMEOUT_MS = 20_000;
/** What the stand-in answers 429 with: the client ignores it (its backoff starts at 1 s), people do not. */
const RETRY_AFTER_SECONDS = '1';
const REQUEST_ID_HEADER = 'x-fal-request-id';
/** `workflows/…` and `comfy/…` ids carry a namespace before owner/app (the client's `parseEndpointId`). */
const NAMESPACES = new Set(['workflows', 'comfy']);
/** Markers a test writes in a prompt to pick the outcome. */
const MARKERS = { nsfw: '[fal-nsfw]', fail: '[fal-fail]', error: '[fal-error]' } as const;

const inputSchema = z.record(z.string(), z.unknown());

const FORCED_FAILURES: Readonly<Record<number, Record<string, unknown>>> = {
  429: { detail: 'Too many requests. Please try again later.' },
  500: { detail: 'Internal Server Error', error_type: 'internal_error' },
  502: { detail: 'Bad Gateway', error_type: 'runner_incomplete_response' },
  503: { detail: 'Service Unavailable', error_type: 'runner_scheduling_failure' },
  504: { detail: 'Request timed out', error_type: 'request_timeout' },
};

interface QueueRequest {
  id: string;
  endpointId: string;
  /** owner/app (with its namespace): the only part status, result and cancel carry. */
  appId: string;
  kind: FalOutputKind;
  input: Record<string, unknown>;
  prompt: string;
  steps: number;
  /** Status polls that moved the request on. */
  progress: number;
  state: 'open' | 'completed' | 'cancelled';
  submittedAt: number;
  completing?: Promise<void>;
  result?: { status: number; body: unknown; headers?: Record<string, string> };
}

/** Endpoint id → output kind, from Kinora's fal model map. */
function modelMapKinds(): Map<string, FalOutputKind> {
  const calls: FalCall[] = [FAL_TEXT_CALL, FAL_VISION_CALL];
  for (const entry of Object.values(FAL_MODELS)) if (entry.fal) calls.push(...Object.values(entry.calls));
  return new Map(calls.map((call) => [call.endpoint, call.output]));
}

/** owner/app of an endpoint id (namespace kept), as the client builds status, result and cancel URLs. */
export function appIdOf(endpointId: string): string {
  const parts = endpointId.split('/');
  const take = NAMESPACES.has(parts[0] ?? '') ? 3 : 2;
  return parts.slice(0, take).join('/');
}

/** Every `prompt` string of the input, at any depth. */
function promptsIn(input: unknown): string[] {
  if (Array.isArray(input)) return input.flatMap(promptsIn);
  if (!input || typeof input !== 'object') return [];
  return Object.entries(input).flatMap(([key, value]) => (key === 'prompt' && typeof value === 'string' ? [value] : promptsIn(value)));
}

const stageRank: Readonly<Record<QueueStage, number>> = { IN_QUEUE: 0, IN_PROGRESS: 1, COMPLETED: 2 };

/** The stage after `progress` polls: the first half of the steps queued, the rest running. */
function stageAt(progress: number, steps: number): QueueStage {
  if (progress <= Math.ceil(steps / 2)) return 'IN_QUEUE';
  return progress <= steps ? 'IN_PROGRESS' : 'COMPLETED';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFalStandIn(options: FalStandInOptions = {}): Promise<FalStandIn> {
  const mapKinds = modelMapKinds();
  const kindOf = (endpointId: string) => options.outputKindOf?.(endpointId) ?? mapKinds.get(endpointId);
  const fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const files = new OutputFiles();
  const requests = new Map<string, QueueRequest>();
  const submissions: Submission[] = [];
  const statusCalls: StatusCall[] = [];
  const resultCalls: ResultCall[] = [];
  const cancellations: Cancellation[] = [];
  const rejections: Rejection[] = [];
  const inputFetches: InputFetch[] = [];
  const held = new Map<string, 'IN_QUEUE' | 'IN_PROGRESS'>();
  let holdAll: 'IN_QUEUE' | 'IN_PROGRESS' | null = null;
  const releasedFromAll = new Set<string>();
  let steps = options.stepsToComplete ?? DEFAULT_STEPS;
  let forced: { count: number; status: number } = { count: 0, status: 429 };
  const waiters = new Set<() => void>();
  let origin = '';

  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const urlsOf = (queued: QueueRequest) => {
    const base = `${origin}/${queued.appId}/requests/${queued.id}`;
    return { request_id: queued.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  const heldAt = (id: string) => held.get(id) ?? (holdAll && !releasedFromAll.has(id) ? holdAll : undefined);

  const currentStage = (queued: QueueRequest): QueueStage => {
    if (queued.state !== 'open') return 'COMPLETED';
    return queued.progress === 0 ? 'IN_QUEUE' : stageAt(queued.progress, queued.steps);
  };

  /** Requests submitted before this one that are still waiting: fal's `queue_position`. */
  const queuePosition = (queued: QueueRequest) =>
    [...requests.values()].filter((other) => other.submittedAt < queued.submittedAt && other.state === 'open' && currentStage(other) === 'IN_QUEUE').length;

  const logLine = (queued: QueueRequest, message: string) => ({ message, level: 'INFO', source: 'USER', timestamp: new Date(queued.submittedAt).toISOString() });

  /** Runs the "model": fetches the input's links as fal would, then makes the answer. */
  const complete = (queued: QueueRequest): Promise<void> => {
    queued.completing ??= (async () => {
      const links = linksIn(queued.input);
      const fetched = await Promise.all(links.map((link) => fetchLink(queued.id, link, fetchTimeoutMs)));
      inputFetches.push(...fetched);
      const broken = fetched.filter((item) => !fetchWorked(item));
      if (broken.length > 0) {
        // fal downloads input files before the model runs; one it cannot fetch fails the request.
        queued.result = {
          status: 422,
          body: {
            detail: broken.map((item) => ({
              loc: ['body', ...item.field.split(/[.[\]]+/).filter(Boolean).map((part) => (/^\d+$/.test(part) ? Number(part) : part))],
              msg: 'Failed to download the file. Please check if the file is accessible.',
              type: 'file_download_error',
              input: item.url,
            })),
          },
        };
      } else if (queued.prompt.includes(MARKERS.fail)) {
        queued.result = {
          status: 422,
          body: { detail: [{ loc: ['body', 'prompt'], msg: 'The prompt was refused by the model (stand-in marker [fal-fail]).', type: 'value_error' }] },
        };
      } else if (queued.prompt.includes(MARKERS.error)) {
        queued.result = { status: 500, body: { detail: 'Internal error' } };
      } else {
        const body = await outputFor(files, {
          endpointId: queued.endpointId,
          kind: queued.kind,
          input: queued.input,
          prompt: queued.prompt,
          nsfw: queued.prompt.includes(MARKERS.nsfw),
          fileUrl: (name) => `${origin}/files/${encodeURIComponent(name)}`,
        });
        queued.result = { status: 200, body };
      }
      // A cancellation that arrived while the links were fetched wins.
      if (queued.state === 'open') queued.state = 'completed';
    })();
    return queued.completing;
  };

  const send = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
    response.end(text);
  };

  const submit = async (request: http.IncomingMessage, response: http.ServerResponse, endpointId: string, url: URL) => {
    const kind = kindOf(endpointId);
    if (!kind) {
      send(response, 404, { detail: `Application '${endpointId}' not found` });
      return;
    }
    const parsed = inputSchema.safeParse(parseJson(await readBody(request)));
    if (!parsed.success) {
      send(response, 422, { detail: [{ loc: ['body'], msg: 'Input should be a valid JSON object', type: 'model_attributes_type' }] });
      return;
    }
    const queued: QueueRequest = {
      id: randomUUID(),
      endpointId,
      appId: appIdOf(endpointId),
      kind,
      input: parsed.data,
      prompt: promptsIn(parsed.data).join('\n'),
      steps,
      progress: 0,
      state: 'open',
      submittedAt: Date.now(),
    };
    requests.set(queued.id, queued);
    submissions.push({
      requestId: queued.id,
      endpointId,
      input: parsed.data,
      authorization: request.headers.authorization ?? '',
      webhook: url.searchParams.get('fal_webhook'),
      at: queued.submittedAt,
    });
    options.log?.(`${new Date(queued.submittedAt).toISOString()} submit ${endpointId} ${queued.id} ${JSON.stringify(queued.prompt.slice(0, 80))}`);
    send(response, 200, { status: 'IN_QUEUE', ...urlsOf(queued), queue_position: queuePosition(queued) }, { [REQUEST_ID_HEADER]: queued.id });
  };

  const status = async (response: http.ServerResponse, queued: QueueRequest, logs: boolean) => {
    let stage = currentStage(queued);
    if (queued.state === 'open') {
      const natural = stageAt(queued.progress + 1, queued.steps);
      const hold = heldAt(queued.id);
      if (hold && stageRank[natural] > stageRank[hold]) {
        stage = stageRank[stage] > stageRank[hold] ? stage : hold;
      } else {
        queued.progress += 1;
        stage = natural;
        if (stage === 'COMPLETED') await complete(queued);
      }
    }
    const lines =
      stage === 'IN_QUEUE'
        ? []
        : stage === 'IN_PROGRESS'
          ? [logLine(queued, `Running ${queued.endpointId}`)]
          : [logLine(queued, `Running ${queued.endpointId}`), logLine(queued, queued.state === 'cancelled' ? 'Cancelled' : 'Done')];
    // The docs give `logs` only "when logs are enabled" (?logs=1).
    const body: Record<string, unknown> = { status: stage, ...urlsOf(queued), logs: logs ? lines : null };
    if (stage === 'IN_QUEUE') body.queue_position = queuePosition(queued);
    if (stage === 'COMPLETED') body.metrics = { inference_time: queued.state === 'cancelled' ? null : 0.01 };
    const code = stage === 'COMPLETED' ? 200 : 202;
    statusCalls.push({ requestId: queued.id, logs, status: code, stage, at: Date.now() });
    send(response, code, body, { [REQUEST_ID_HEADER]: queued.id });
  };

  const result = (response: http.ServerResponse, queued: QueueRequest) => {
    const answer =
      queued.state === 'cancelled'
        ? {
            status: 499,
            body: { detail: 'Request was cancelled by the client', error_type: 'client_cancelled' },
            headers: { 'X-Fal-Error-Type': 'client_cancelled' },
          }
        : (queued.result ?? { status: 400, body: { detail: 'Request is still in progress' } });
    resultCalls.push({ requestId: queued.id, status: answer.status, at: Date.now() });
    send(response, answer.status, answer.body, { [REQUEST_ID_HEADER]: queued.id, ...(answer.headers ?? {}) });
  };

  const cancel = (response: http.ServerResponse, queued: QueueRequest) => {
    const open = queued.state === 'open';
    if (open) queued.state = 'cancelled';
    const code = open ? 202 : 400;
    const answer = open ? 'CANCELLATION_REQUESTED' : 'ALREADY_COMPLETED';
    cancellations.push({ requestId: queued.id, status: code, answer, at: Date.now() });
    send(response, code, { status: answer }, { [REQUEST_ID_HEADER]: queued.id });
  };

  const serveFile = (response: http.ServerResponse, name: string, head: boolean) => {
    const file = files.get(name);
    if (!file) {
      send(response, 404, { detail: 'File not found' });
      return;
    }
    response.writeHead(200, { 'Content-Type': file.contentType, 'Content-Length': file.data.length, 'Cache-Control': 'public, max-age=3600' });
    response.end(head ? undefined : file.data);
  };

  const route = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    const method = request.method ?? 'GET';
    const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');

    // Result files are public CDN links on fal (no key), like https://v3.fal.media/files/….
    if (path.startsWith('files/') && (method === 'GET' || method === 'HEAD')) {
      serveFile(response, path.slice('files/'.length), method === 'HEAD');
      return;
    }

    const authorization = request.headers.authorization ?? '';
    if (!/^Key\s+\S+/.test(authorization)) {
      send(response, 401, { detail: 'No authentication provided. Send your key as Authorization: Key <FAL_KEY>.' });
      return;
    }
    if (forced.count > 0) {
      forced = { ...forced, count: forced.count - 1 };
      rejections.push({ method, path: `/${path}`, status: forced.status, at: Date.now() });
      send(response, forced.status, FORCED_FAILURES[forced.status] ?? { detail: 'Error' }, forced.status === 429 ? { 'Retry-After': RETRY_AFTER_SECONDS } : {});
      return;
    }

    const byId = /^(?<app>.+)\/requests\/(?<id>[^/]+)(?<action>\/status|\/cancel)?$/.exec(path);
    if (byId?.groups) {
      const { app, id, action } = byId.groups;
      const queued = requests.get(id ?? '');
      if (!queued || queued.appId !== app) {
        send(response, 404, action === '/cancel' ? { status: 'NOT_FOUND' } : { detail: 'Request not found' });
        return;
      }
      if (action === '/status' && method === 'GET') return status(response, queued, url.searchParams.get('logs') === '1');
      if (action === '/cancel' && method === 'PUT') return cancel(response, queued);
      if (action === undefined && method === 'GET') return result(response, queued);
      send(response, 405, { detail: 'Method Not Allowed' });
      return;
    }
    if (method === 'POST' && path.split('/').length >= 2) return submit(request, response, path, url);
    send(response, 404, { detail: 'Not Found' });
  };

  const server = http.createServer((request, response) => {
    route(request, response)
      .catch((error: unknown) => {
        if (!response.headersSent) send(response, 500, { detail: error instanceof Error ? error.message : String(error) });
        else response.destroy();
      })
      .finally(notify);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
    submissions,
    statusCalls,
    resultCalls,
    cancellations,
    rejections,
    inputFetches,
    get stepsToComplete() {
      return steps;
    },
    set stepsToComplete(value: number) {
      steps = Math.max(0, Math.floor(value));
    },
    failNext(count, failStatus) {
      forced = { count, status: failStatus };
    },
    hold(requestId, stage = 'IN_PROGRESS') {
      if (requestId === 'all') {
        holdAll = stage;
        releasedFromAll.clear();
      } else held.set(requestId, stage);
    },
    release(requestId) {
      if (requestId === 'all') {
        holdAll = null;
        held.clear();
        releasedFromAll.clear();
      } else {
        held.delete(requestId);
        releasedFromAll.add(requestId);
      }
    },
    stageOf(requestId) {
      const queued = requests.get(requestId);
      return queued ? currentStage(queued) : null;
    },
    until(check, timeoutMs = DEFAULT_UNTIL_TIMEOUT_MS) {
      if (check()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`fal stand-in: condition not met within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = () => {
          if (!check()) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve();
        };
        waiters.add(waiter);
      });
    },
  };
}
