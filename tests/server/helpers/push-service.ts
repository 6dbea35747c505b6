import { execFile } from 'node:child_process';
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * A local stand-in of a Web Push service (RFC 8030), for the Done alerts' tests only: an HTTPS
 * server (web-push only speaks https) that takes the push POST a real service would, checks its
 * VAPID authorization (RFC 8292) against the server's public key, and decrypts the aes128gcm
 * payload (RFC 8291 with RFC 8188's content coding) with the private key of a subscription made
 * here as a browser makes one: a P-256 key pair and a 16-byte auth secret.
 *
 * Followed: RFC 8291 §3.3–3.4 (key derivation), §4 (the aes128gcm header); RFC 8188 §2 (record,
 * padding delimiter 0x02), §2.2–2.3 (CEK and nonce); RFC 8292 §2–3 (JWT claims aud/exp/sub, the
 * `vapid t=…, k=…` scheme); the web-push README (https://github.com/web-push-libs/web-push) for
 * what sendNotification sends (TTL, Urgency, Content-Encoding headers).
 */

export interface BrowserSubscription {
  /** As PushSubscription.toJSON() gives it: what POST push/subscriptions takes. */
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  auth: Buffer;
}

export interface ReceivedPush {
  endpoint: string;
  headers: Record<string, string | string[] | undefined>;
  /** The JWT's claims, after its ES256 signature was checked against `k`. */
  claims: { aud: string; exp: number; sub: string };
  /** The `k` of the Authorization header: the VAPID public key that signed. */
  vapidKey: string;
  /** The decrypted payload, parsed as JSON. */
  payload: unknown;
}

export interface PushServiceStandIn {
  /** Trusts the stand-in's self-signed certificate (AppOptions.push.agent). */
  agent: Agent;
  /** Every accepted push, in order. */
  received: ReceivedPush[];
  /** Problems found in a request (a bad JWT, an undecryptable body): answered 400 and listed here. */
  problems: string[];
  /** A new subscription, as a browser's pushManager.subscribe would make one. */
  subscribe(): BrowserSubscription;
  /** From now on, pushes to this endpoint are answered `status` (410: the browser unsubscribed). */
  answer(endpoint: string, status: number): void;
  /** Resolves once `count` pushes have been accepted (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

const run = promisify(execFile);
const b64 = (value: string): Buffer => Buffer.from(value, 'base64url');

/** A self-signed certificate for 127.0.0.1, made by openssl (Debian's, which PostgreSQL's packages pull in). */
async function selfSignedCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kinora-push-tls-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    await run('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    ]);
    return { key: await readFile(keyFile), cert: await readFile(certFile) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** RFC 8292 §2: checks the JWT's ES256 signature with the key `k` names and answers its claims. */
function checkVapid(authorization: string | undefined, endpoint: URL): { claims: ReceivedPush['claims']; vapidKey: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`Authorization is not "vapid t=…, k=…": ${authorization ?? '(none)'}`);
  const [, jwt = '', vapidKey = ''] = match;
  const point = b64(vapidKey);
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const [header = '', body = '', signature = ''] = jwt.split('.');
  if (JSON.parse(b64(header).toString()).alg !== 'ES256') throw new Error('the JWT is not ES256');
  if (!verify('sha256', Buffer.from(`${header}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, b64(signature))) {
    throw new Error('the JWT signature does not match k');
  }
  const claims = JSON.parse(b64(body).toString()) as ReceivedPush['claims'];
  // §2: aud is the push resource's origin; exp no more than 24 hours ahead; sub a contact URI.
  if (claims.aud !== endpoint.origin) throw new Error(`aud ${claims.aud} is not ${endpoint.origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 60 * 60)) throw new Error(`exp ${claims.exp} is not within 24 hours`);
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub} is not mailto: or https:`);
  return { claims, vapidKey };
}

/** RFC 8291 §3.4 and RFC 8188: the plaintext of a one-record aes128gcm body, for this subscription. */
function decrypt(body: Buffer, subscription: BrowserSubscription): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not the sender's 65-byte public key`);
  if (record.length > recordSize) throw new Error('the payload spans more than one record');
  const receiverKey = subscription.ecdh.getPublicKey();
  const ecdhSecret = subscription.ecdh.computeSecret(senderKey);
  // §3.3: IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0x00 || ua_public || as_public, 32).
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, subscription.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends in the delimiter 0x02, then zero or more 0x00 of padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('the last record has no 0x02 padding delimiter');
  return padded.subarray(0, end);
}

export async function startPushService(): Promise<PushServiceStandIn> {
  const tls = await selfSignedCertificate();
  const subscriptions = new Map<string, BrowserSubscription>();
  const answers = new Map<string, number>();
  const received: ReceivedPush[] = [];
  const problems: string[] = [];
  const waiters = new Set<() => void>();
  let origin = '';

  const server: Server = createServer(tls, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const endpoint = `${origin}${request.url ?? ''}`;
      const subscription = subscriptions.get(endpoint);
      const forced = answers.get(endpoint);
      if (request.method !== 'POST' || !subscription) {
        response.writeHead(404).end();
        return;
      }
      if (forced !== undefined) {
        response.writeHead(forced).end();
        return;
      }
      try {
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding is ${request.headers['content-encoding']}`);
        if (request.headers.ttl === undefined) throw new Error('no TTL header (RFC 8030 §5.2 requires one)');
        const vapid = checkVapid(request.headers.authorization, new URL(endpoint));
        const payload: unknown = JSON.parse(decrypt(Buffer.concat(chunks), subscription).toString('utf8'));
        received.push({ endpoint, headers: request.headers, ...vapid, payload });
        for (const wake of [...waiters]) wake();
        // RFC 8030 §5: 201 Created with the message's Location.
        response.writeHead(201, { Location: `${origin}/message/${received.length}` }).end();
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ ca: tls.cert, keepAlive: false });

  return {
    agent,
    received,
    problems,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(12).toString('base64url')}`;
      const subscription: BrowserSubscription = {
        json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
        ecdh,
        auth,
      };
      subscriptions.set(endpoint, subscription);
      return subscription;
    },
    answer(endpoint, status) {
      answers.set(endpoint, status);
    },
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the push service got ${received.length} pushes, not ${count} (problems: ${problems.join('; ') || 'none'})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
