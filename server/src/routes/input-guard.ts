import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_DEPTH_MAX, REFUSED_BODY_DRAIN_MAX_BYTES } from '../config.ts';
import { HttpError } from './http.ts';
import { DETAILS } from './messages.ts';

/**
 * Checks every request once, at the boundary, before any route's schema or query sees it
 * (issue 17). PostgreSQL text cannot hold NUL, and no Kinora field wants a control character, so
 * one in any string (path parameter, query, JSON value or key, multipart field) is a 400 instead
 * of a 500 from deep inside a query; tabs and line breaks stay, as messages and prompts use them.
 * Nesting is bounded too: a body thousands of levels deep would exhaust the stack of the next
 * thing that walks it.
 */

/** C0 controls except tab, line feed and carriage return, and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is this rule's purpose.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const hasControlCharacter = (text: string): boolean => CONTROL_CHARACTER.test(text);

/** A key as it may be named in a message: its control characters shown as "?". */
const printable = (key: string): string => key.replace(new RegExp(CONTROL_CHARACTER.source, 'g'), '?');

/**
 * Throws the 400 for the first string (or object key) with a control character, or for nesting
 * deeper than `maxDepth`. Walks without recursion, so the walk itself cannot overflow.
 */
export function checkInputValue(value: unknown, where: string, maxDepth = JSON_DEPTH_MAX): void {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: where, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path, depth } = next;
    if (typeof current === 'string') {
      if (hasControlCharacter(current)) throw new HttpError(400, DETAILS.controlCharacter(path));
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) throw new HttpError(400, DETAILS.nestedTooDeep(maxDepth));
    if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, path: `${path}[${index}]`, depth: depth + 1 }));
      continue;
    }
    for (const [key, item] of Object.entries(current as Record<string, unknown>)) {
      const keyPath = `${path}.${printable(key)}`;
      if (hasControlCharacter(key)) throw new HttpError(400, DETAILS.controlCharacter(`The key ${keyPath}`));
      pending.push({ value: item, path: keyPath, depth: depth + 1 });
    }
  }
}

/**
 * preValidation hook: the route's path parameters, query and (parsed) body. A callback hook, as
 * the others on every request: an async one costs each request a promise (issue 19, the status path).
 */
export function refuseUnsafeInput(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  try {
    checkInputValue(request.params, 'The path');
    checkInputValue(request.query, 'The query');
    checkInputValue(request.body, 'The request body');
  } catch (error) {
    done(error as Error);
    return;
  }
  done();
}

/**
 * onSend hook: an answer to a signed-in call is the caller's own (ASVS 8.2.1), so no browser or
 * proxy may keep a copy of it.
 */
export function noStoreForSignedIn(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  if (request.headers.authorization) reply.header('Cache-Control', 'no-store');
  done(null, payload);
}

/**
 * After a refusal sent before the request's body has all arrived (a multipart upload refused on
 * its query or its caller): reads and discards the rest of the body so the connection stays
 * usable and the sender, still writing, is never reset before it reads the answer. Closing
 * instead made browsers report "fetch failed" now and then. A body past `maxBytes` (the answer
 * says so with Connection: close) is cut off.
 */
export function drainRefusedBody(raw: IncomingMessage, status: number, reply: FastifyReply, maxBytes = REFUSED_BODY_DRAIN_MAX_BYTES): void {
  const declared = Number(raw.headers['content-length']);
  if (status === 413 || (Number.isFinite(declared) && declared > maxBytes)) {
    reply.header('Connection', 'close');
    return;
  }
  // A multipart parser may still be attached; from now on the bytes go nowhere.
  raw.unpipe();
  let read = 0;
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) raw.socket.destroy();
  });
  raw.resume();
}
