import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { PUSH_TEXTS } from '@/config/push-texts';
import { API } from '../msw/handlers';
import { server } from '../msw/server';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

/**
 * The account page's Done alerts (issue 21 item 3) with the server's push calls answered by msw.
 * jsdom has no service workers, Push API or notifications: this browser's side is a stand-in with
 * their shapes (navigator.serviceWorker, PushManager, Notification), whose answers each test sets.
 */

const user = userEvent.setup();
const SERVER_KEY = Buffer.from(Uint8Array.from({ length: 65 }, (_, index) => (index === 0 ? 4 : index))).toString('base64url');
const ENDPOINT = 'https://push.example/send/abc';
const subscriptionJson = { endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } };

interface FakeBrowser {
  permission: NotificationPermission;
  /** What the permission prompt answers. */
  answer: NotificationPermission;
  /** What pushManager.subscribe does: resolve, or throw this. */
  subscribeError: Error | null;
  registered: boolean;
  subscribed: boolean;
  register: Mock<(url: string, options: unknown) => Promise<unknown>>;
  subscribe: Mock<(options: unknown) => Promise<unknown>>;
  unsubscribe: Mock<() => Promise<boolean>>;
}

let browser: FakeBrowser;
let serverEnabled: boolean;
let posted: unknown[];
let deleted: string[];
let tests: number;

function installBrowser(): void {
  const subscription = {
    endpoint: ENDPOINT,
    options: { applicationServerKey: new Uint8Array(Buffer.from(SERVER_KEY, 'base64url')).buffer },
    toJSON: () => subscriptionJson,
    unsubscribe: () => browser.unsubscribe(),
  };
  const registration = {
    pushManager: {
      getSubscription: async () => (browser.subscribed ? subscription : null),
      subscribe: (options: unknown) => browser.subscribe(options),
    },
  };
  browser = {
    permission: 'default',
    answer: 'granted',
    subscribeError: null,
    registered: false,
    subscribed: false,
    register: vi.fn(async () => {
      browser.registered = true;
      return registration;
    }),
    subscribe: vi.fn(async () => {
      if (browser.subscribeError) throw browser.subscribeError;
      browser.subscribed = true;
      return subscription;
    }),
    unsubscribe: vi.fn(async () => {
      browser.subscribed = false;
      return true;
    }),
  };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', {
    get permission() {
      return browser.permission;
    },
    requestPermission: vi.fn(async () => {
      browser.permission = browser.answer;
      return browser.answer;
    }),
  });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register: (url: string, options: unknown) => browser.register(url, options),
      getRegistration: async () => (browser.registered ? registration : undefined),
      get ready() {
        return Promise.resolve(registration);
      },
    },
  });
}

beforeEach(() => {
  serverEnabled = false;
  posted = [];
  deleted = [];
  tests = 0;
  installBrowser();
  server.use(
    http.get(`${API}/push/public-key`, () => HttpResponse.json({ data: { public_key: SERVER_KEY, enabled: serverEnabled } })),
    http.post(`${API}/push/subscriptions`, async ({ request }) => {
      posted.push(await request.json());
      serverEnabled = true;
      return HttpResponse.json({ data: { enabled: true } }, { status: 201 });
    }),
    http.delete(`${API}/push/subscriptions`, ({ request }) => {
      deleted.push(new URL(request.url).searchParams.get('endpoint') ?? '');
      serverEnabled = false;
      return HttpResponse.json({ data: { enabled: false } });
    }),
    http.post(`${API}/push/test`, () => {
      tests += 1;
      return HttpResponse.json({ data: { sent: 1, failed: 0, removed: 0 } });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

async function openSection() {
  await signedInAs(alice);
  renderApp('/account');
  const section = (await screen.findByRole('heading', { name: PUSH_TEXTS.title })).closest('section');
  if (!section) throw new Error('no Done alerts section');
  const toggle = within(section).getByRole('switch', { name: PUSH_TEXTS.switchLabel });
  await waitFor(() => expect(toggle).toBeEnabled());
  return { section: within(section), toggle };
}

describe('Done alerts on /account', () => {
  it('asks for notifications, subscribes with the server key, sends the subscription, and sends a test alert', async () => {
    const { section, toggle } = await openSection();
    expect(toggle).not.toBeChecked();
    expect(section.getByText(PUSH_TEXTS.off)).toBeInTheDocument();
    expect(section.queryByRole('button', { name: PUSH_TEXTS.test })).not.toBeInTheDocument();

    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(section.getByText(PUSH_TEXTS.on)).toBeInTheDocument();
    expect(browser.register).toHaveBeenCalledWith('/sw.js', { scope: '/', updateViaCache: 'none' });
    const [options] = browser.subscribe.mock.calls[0] as [{ userVisibleOnly: boolean; applicationServerKey: Uint8Array }];
    expect(options.userVisibleOnly).toBe(true);
    expect(Buffer.from(options.applicationServerKey).toString('base64url')).toBe(SERVER_KEY);
    expect(posted).toEqual([subscriptionJson]);

    await user.click(section.getByRole('button', { name: PUSH_TEXTS.test }));
    expect(await section.findByText(PUSH_TEXTS.testSent(1))).toBeInTheDocument();
    expect(tests).toBe(1);
  });

  it('turns off: the server forgets this browser and the browser unsubscribes', async () => {
    browser.permission = 'granted';
    browser.registered = true;
    browser.subscribed = true;
    serverEnabled = true;
    const { section, toggle } = await openSection();
    await waitFor(() => expect(toggle).toBeChecked());
    // On, the subscription is sent again in case the server dropped it.
    expect(posted).toEqual([subscriptionJson]);
    expect(section.getByText(PUSH_TEXTS.otherDevices)).toBeInTheDocument();
    await user.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(deleted).toEqual([ENDPOINT]);
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('says how to allow notifications when they are blocked, and sends nothing', async () => {
    browser.answer = 'denied';
    const { section, toggle } = await openSection();
    await user.click(toggle);
    expect(await section.findByRole('alert')).toHaveTextContent(PUSH_TEXTS.denied);
    expect(toggle).not.toBeChecked();
    expect(browser.register).not.toHaveBeenCalled();
    expect(posted).toEqual([]);
  });

  it('says the push service could not be reached when subscribing fails', async () => {
    browser.subscribeError = new DOMException('Registration failed - push service error', 'AbortError');
    const { section, toggle } = await openSection();
    await user.click(toggle);
    expect(await section.findByRole('alert')).toHaveTextContent(PUSH_TEXTS.pushServiceUnreachable);
    expect(toggle).not.toBeChecked();
    expect(posted).toEqual([]);
  });

  it('says so in a browser without service workers', async () => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
    await signedInAs(alice);
    renderApp('/account');
    expect(await screen.findByText(PUSH_TEXTS.unsupported)).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: PUSH_TEXTS.switchLabel })).not.toBeInTheDocument();
  });
});
