/**
 * Kinora's service worker: Done alerts (issue 21 item 3, README "Done alerts"). It has no fetch
 * handler and caches nothing: its one job is to show a push message from Kinora's server as a
 * notification when no Kinora window is visible, and to open the page it names when clicked.
 * Served from the site's root at /sw.js (its scope is the whole site) with Cache-Control:
 * no-cache, so a new version is picked up at the next check (registered with updateViaCache: 'none').
 *
 * The payload is JSON {title, body, url, tag} (src/services/schemas/push.ts pushAlertPayloadSchema).
 * References: the Push API's push event and the Notifications API's showNotification / notificationclick
 * (https://www.w3.org/TR/push-api/, https://notifications.spec.whatwg.org/).
 */

const FALLBACK = { title: 'Kinora', body: 'Your work is done.', url: '/', tag: 'kinora-alert' };

/** The message's fields, each checked; a path of this site only (a push cannot open another site). */
function readPayload(data) {
  let raw;
  try {
    raw = data ? data.json() : {};
  } catch {
    raw = {};
  }
  if (raw === null || typeof raw !== 'object') raw = {};
  const text = (value, fallback) => (typeof value === 'string' && value.trim() !== '' ? value : fallback);
  const url = text(raw.url, FALLBACK.url);
  return {
    title: text(raw.title, FALLBACK.title),
    body: text(raw.body, FALLBACK.body),
    url: url.startsWith('/') && !url.startsWith('//') ? url : FALLBACK.url,
    tag: text(raw.tag, FALLBACK.tag),
  };
}

const kinoraWindows = () => self.clients.matchAll({ type: 'window', includeUncontrolled: true });

self.addEventListener('install', () => {
  // Nothing to cache: the new version takes over at once.
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  event.waitUntil(
    (async () => {
      const alert = readPayload(event.data);
      // A visible Kinora tab tells the person itself (its toast and desktop notification,
      // src/app/use-job-toasts.ts): the alert would say it twice.
      const windows = await kinoraWindows();
      if (windows.some((client) => client.visibilityState === 'visible')) return;
      await self.registration.showNotification(alert.title, {
        body: alert.body,
        tag: alert.tag,
        icon: '/favicon.svg',
        data: { url: alert.url },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = typeof event.notification.data?.url === 'string' ? event.notification.data.url : FALLBACK.url;
  const target = new URL(path, self.location.origin);
  event.waitUntil(
    (async () => {
      // A window already on that page is brought forward; otherwise the page opens in a new one
      // (a window elsewhere in Kinora keeps what the person was doing there).
      const windows = await kinoraWindows();
      const open = windows.find((client) => {
        const url = new URL(client.url);
        return url.origin === target.origin && url.pathname === target.pathname;
      });
      if (open) {
        await open.focus();
        return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});
