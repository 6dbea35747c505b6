import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import type { AnyStateMachine } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { NETWORK_RETRY_BASE_MS } from '@/config/limits';
import { accountMachine } from '@/machines/session/account.machine';
import { authFormsMachine } from '@/machines/session/auth-forms.machine';
import { postLoadMachine } from '@/machines/session/post-load.machine';
import { sessionMachine } from '@/machines/session/session.machine';
import { selectIsOffline, selectSessionStatus } from '@/machines/session/session.selectors';
import { tokenRefreshMachine } from '@/machines/session/token-refresh.machine';
import { buildUser, createFakes, dispatchAuth, inSession, startSession } from './session.fixtures';

/**
 * The session's children (issue 18): each is reachable through the actor system by its systemId,
 * and each that waits for the network keeps its own count of attempts.
 */

const networkError = () => Object.assign(new Error('Network error'), { name: 'NetworkError' });

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('session children', () => {
  it('registers the credits and token refresh children in the actor system while someone is signed in', async () => {
    const fakes = createFakes();
    fakes.loadUser.mockResolvedValue(buildUser());
    const { actor } = startSession({ fakes });
    await waitFor(actor, (s) => selectSessionStatus(s) === 'ready');
    expect(actor.system.get('credits')).toBe(actor.getSnapshot().children.credits);
    expect(actor.system.get('tokenRefresh')).toBe(actor.getSnapshot().children.tokenRefresh);
    actor.send({ type: 'session.signOut' });
    await waitFor(actor, (s) => selectSessionStatus(s) === 'signedOut');
    expect(actor.system.get('credits')).toBeUndefined();
    expect(actor.system.get('tokenRefresh')).toBeUndefined();
    actor.stop();
  });

  it('backs off loading the user and refreshing the tokens each on its own count: neither resets nor doubles the other', async () => {
    vi.useFakeTimers();
    const fakes = createFakes();
    fakes.refreshSession.mockRejectedValue(networkError());
    const { actor } = startSession({ fakes });
    await waitFor(actor, (s) => selectSessionStatus(s) === 'signedOut');
    // The user cannot be loaded after the sign-in, and the tokens cannot be refreshed: both wait.
    fakes.loadUser.mockRejectedValue(networkError());
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    await waitFor(actor, (s) => inSession(s, { signedIn: { flow: 'waitingForNetwork' } }));
    dispatchAuth('tokenRefresh_failure', { error: networkError() });
    expect(inSession(actor.getSnapshot(), { signedIn: { tokens: 'offline' } })).toBe(true);
    expect(selectIsOffline(actor.getSnapshot())).toBe(true);
    const loads = fakes.loadUser.mock.calls.length;

    // Each waits 2 s, 4 s, 8 s…: with one shared count, the second wait of each would be 8 s.
    for (const [attempt, wait] of [NETWORK_RETRY_BASE_MS, 2 * NETWORK_RETRY_BASE_MS, 4 * NETWORK_RETRY_BASE_MS].entries()) {
      vi.advanceTimersByTime(wait - 1);
      expect(fakes.loadUser).toHaveBeenCalledTimes(loads + attempt);
      expect(fakes.refreshSession).toHaveBeenCalledTimes(attempt);
      vi.advanceTimersByTime(1);
      expect(fakes.loadUser).toHaveBeenCalledTimes(loads + attempt + 1);
      expect(fakes.refreshSession).toHaveBeenCalledTimes(attempt + 1);
      await waitFor(
        actor,
        (s) => inSession(s, { signedIn: { flow: 'waitingForNetwork' } }) && inSession(s, { signedIn: { tokens: 'offline' } }),
      );
    }
    actor.stop();
  });

  it('a user loaded at last does not reset the token refresh back-off', async () => {
    vi.useFakeTimers();
    const fakes = createFakes();
    fakes.refreshSession.mockRejectedValue(networkError());
    const { actor } = startSession({ fakes });
    await waitFor(actor, (s) => selectSessionStatus(s) === 'signedOut');
    fakes.loadUser.mockRejectedValueOnce(networkError()).mockRejectedValueOnce(networkError()).mockResolvedValue(buildUser());
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    await waitFor(actor, (s) => inSession(s, { signedIn: { flow: 'waitingForNetwork' } }));
    dispatchAuth('tokenRefresh_failure', { error: networkError() });

    // 2 s: both try again; the user still cannot be loaded, the tokens not refreshed.
    vi.advanceTimersByTime(NETWORK_RETRY_BASE_MS);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(1);
    await waitFor(actor, (s) => inSession(s, { signedIn: { tokens: 'offline' } }));
    // 4 s later the user is loaded (and the session ready); the tokens' second wait is 4 s too.
    vi.advanceTimersByTime(2 * NETWORK_RETRY_BASE_MS - 1);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await waitFor(actor, (s) => selectSessionStatus(s) === 'ready');
    expect(fakes.refreshSession).toHaveBeenCalledTimes(2);
    await waitFor(actor, (s) => inSession(s, { signedIn: { tokens: 'offline' } }));
    // Its third wait is 8 s: the user's arrival did not start it over at 2 s.
    vi.advanceTimersByTime(4 * NETWORK_RETRY_BASE_MS - 1);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(3);
    actor.stop();
  });
});

/** Every (machine, state path) of the session's machines that invokes `src`. */
const invokersOf = (src: string): string[] =>
  [sessionMachine, accountMachine, authFormsMachine, postLoadMachine, tokenRefreshMachine].flatMap((machine: AnyStateMachine) =>
    [machine.root, ...getStateNodes(machine.root)]
      .filter((node) => node.invoke.some((invoke) => invoke.src === src))
      .map((node) => `${machine.id}:${node.path.join('.')}`),
  );

describe('session structure', () => {
  it('loads the user in one place: the account child', async () => {
    expect(invokersOf('loadUser')).toEqual(['account:loading']);
    // And every load goes through it: at boot, after the sign-in, after a coupon, on request.
    const fakes = createFakes();
    fakes.loadUser.mockResolvedValue(buildUser());
    const { actor } = startSession({ fakes, input: { location: { pathname: '/', search: '' } } });
    await waitFor(actor, (s) => selectSessionStatus(s) === 'ready');
    actor.send({ type: 'session.refreshUser' });
    await waitFor(actor, () => fakes.loadUser.mock.calls.length === 2);
    await waitFor(actor, (s) => inSession(s, { signedIn: { flow: { ready: 'idle' } } }));
    actor.stop();
  });

  it('invokes each child with a systemId', () => {
    const invokes = [sessionMachine.root, ...getStateNodes(sessionMachine.root)].flatMap((node) => node.invoke);
    const bySrc = Object.fromEntries(invokes.map((invoke) => [String(invoke.src), invoke.systemId]));
    expect(bySrc).toMatchObject({
      account: 'account',
      authForms: 'authForms',
      postLoad: 'postLoad',
      tokenRefresh: 'tokenRefresh',
      credits: 'credits',
    });
  });
});
