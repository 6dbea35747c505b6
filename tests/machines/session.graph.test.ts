import { describe, expect, it } from 'vitest';
import { createEmptyActor } from 'xstate';
import type { AnyActorScope, AnyStateMachine, AnyStateNode, AnyTransitionDefinition, StateValue } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, getStateNodes } from 'xstate/graph';
import { sessionMachine } from '@/machines/session/session.machine';
import type { SessionEvent, SignInStep } from '@/machines/session/session.machine';
import type { SessionSnapshot } from '@/machines/session/session.selectors';
import { ALLOWED_REDIRECT, buildInput, buildUser } from './session.fixtures';

/**
 * Model-based coverage of the session machine (ARCHITECTURE §3, §5): the shortest paths from the
 * initial state, over every event the machine accepts (actor results included), must reach every
 * state node of its definition. The list of nodes comes from the machine itself, so a state added
 * later that nothing can reach fails this test. The same goes for transitions: every (source state,
 * event) edge of the definition must be taken somewhere in the explored graph.
 */

const nodes = getStateNodes(sessionMachine.root);
const nodeByPath = new Map<string, AnyStateNode>(nodes.map((node) => [node.path.join('.'), node]));

/** Every active state path of a value: { a: { b: 'c' } } → a, a.b, a.b.c. */
const activePaths = (value: StateValue, prefix: string[] = []): string[] => {
  if (typeof value === 'string') return [[...prefix, value].join('.')];
  return Object.entries(value).flatMap(([key, child]) => [
    [...prefix, key].join('.'),
    ...(child === undefined ? [] : activePaths(child, [...prefix, key])),
  ]);
};

const user = buildUser();
const guest = buildUser({ username: 'guest', attributes: { preferred_username: 'guest' } });
const unverified = buildUser({ attributes: { email_verified: 'false', preferred_username: undefined } });
const networkError = Object.assign(new Error('Network error'), { name: 'NetworkError' });
const alreadySignedIn = Object.assign(new Error('There is already a signed in user.'), {
  name: 'UserAlreadyAuthenticatedException',
});
const otherError = new Error('Something failed');

const signInSteps: SignInStep[] = [
  { kind: 'done' },
  { kind: 'mfaSelection', options: ['SMS', 'TOTP'] },
  { kind: 'mfaCode', method: 'TOTP' },
  { kind: 'mfaCode', method: 'SMS', destination: '+*******1234' },
  { kind: 'newPassword' },
  { kind: 'confirmSignUp' },
  { kind: 'resetPassword' },
];

/** What each actor of the machine may answer with, by its name in `setup`. */
const outputsBySrc: Record<string, readonly unknown[]> = {
  loadUser: [user, guest, unverified, null],
  signInWithPassword: signInSteps,
  answerChallenge: signInSteps,
  signInWithProvider: [undefined],
  signUp: [{ needsConfirmation: true, destination: 'a***@e***.com' }, { needsConfirmation: false }],
  confirmSignUp: [undefined],
  resendSignUpCode: [{ destination: 'a***@e***.com' }],
  requestPasswordReset: [{ destination: 'a***@e***.com' }],
  confirmPasswordReset: [undefined],
  signOut: [undefined],
  refreshSession: [true, false],
  takeRedirectRequest: [
    null,
    { uri: ALLOWED_REDIRECT, state: 's' },
    { uri: 'https://evil.example/', state: 's' },
  ],
  buildRedirect: [`${ALLOWED_REDIRECT}?code=abc&state=s`],
  redeemPendingCoupon: [null, { credits: 50 }],
  checkHandle: [true, false],
  saveHandle: [undefined],
  deleteAccount: [undefined],
};

/** The results of the actors invoked by the active states, as the done and error events XState sends. */
const actorEvents = (snapshot: SessionSnapshot): SessionEvent[] =>
  activePaths(snapshot.value).flatMap((path) =>
    (nodeByPath.get(path)?.invoke ?? []).flatMap((invoke) => {
      const src = typeof invoke.src === 'string' ? invoke.src : '';
      const outputs = outputsBySrc[src] ?? [];
      return [
        ...outputs.map((output) => ({ type: `xstate.done.actor.${invoke.id}`, output })),
        ...[networkError, alreadySignedIn, otherError].map((error) => ({ type: `xstate.error.actor.${invoke.id}`, error })),
      ] as unknown as SessionEvent[];
    }),
  );

const uiEvents: SessionEvent[] = [
  { type: 'location.changed', pathname: '/authentication', search: '' },
  { type: 'session.signIn', username: 'ada@example.com', password: 'secret1' },
  { type: 'session.signInAsGuest' },
  { type: 'session.signInWithProvider', provider: 'Google' },
  { type: 'session.selectMfa', method: 'TOTP' },
  { type: 'session.confirmSignIn', code: '123456' },
  { type: 'session.setNewPassword', password: 'brand-new' },
  { type: 'session.signUp', email: 'new@example.com', password: 'secret1' },
  { type: 'session.confirmSignUp', code: '123456' },
  { type: 'session.requestPasswordReset', email: 'ada@example.com' },
  { type: 'session.confirmPasswordReset', code: '123456', newPassword: 'brand-new' },
  { type: 'session.setHandle', handle: 'ada' },
  { type: 'auth.tokenRefreshFailed', networkError: true },
  { type: 'auth.tokenRefreshFailed', networkError: false },
  { type: 'auth.redirectFailed', message: 'access_denied' },
  { type: 'emailVerification.failed', message: 'Invalid code' },
  { type: 'emailVerification.sendFailed', message: 'Limit exceeded' },
  ...signInSteps.map((step) => ({ type: 'signIn.step' as const, step })),
];

/** The state value plus the parts of context that guards read, so no guarded path is pruned. */
const serializeState = (snapshot: SessionSnapshot): string =>
  JSON.stringify({
    value: snapshot.value,
    user: snapshot.context.currentUser?.username ?? null,
    pendingEmail: snapshot.context.pendingEmail !== null,
    mfaOptions: snapshot.context.mfaOptions,
    pendingHandle: snapshot.context.pendingHandle !== null,
    userReloadDue: snapshot.context.userReloadDue,
  });

/**
 * As XState's default: every event type the active states (and the root) handle, with the
 * payloads above where the type needs one, else the bare type (timers included).
 */
const eventsFor = (snapshot: SessionSnapshot): SessionEvent[] => {
  const withPayload = [...uiEvents, ...actorEvents(snapshot)];
  const ownTypes = new Set([
    ...sessionMachine.root.ownEvents,
    ...activePaths(snapshot.value).flatMap((path) => nodeByPath.get(path)?.ownEvents ?? []),
  ]);
  return [...ownTypes].flatMap((type) => {
    const matching = withPayload.filter((event) => event.type === type);
    return matching.length > 0 ? matching : [{ type } as SessionEvent];
  });
};

/** An edge of the machine: the state node that owns a transition and the event it takes. */
const edgeOf = (transition: AnyTransitionDefinition): string =>
  `${transition.source.path.join('.') || '(root)'} · ${transition.eventType || '(always)'}`;

/** Every edge the definition has, read from the state nodes (eventless ones included). */
const definedEdges = (): Set<string> =>
  new Set(
    [sessionMachine.root, ...nodes].flatMap((node) => [
      ...[...node.transitions.values()].flat().map(edgeOf),
      ...(node.always ?? []).map(edgeOf),
    ]),
  );

/**
 * The edges one step of the graph takes: XState reports each microstep's transitions (the event's
 * own and the eventless ones that follow) to the system's inspector, which a scope of our own
 * collects.
 */
const edgesTaken = (snapshot: SessionSnapshot, event: SessionEvent): string[] => {
  const taken: string[] = [];
  const actor = createEmptyActor();
  const system = Object.assign(Object.create(actor.system) as typeof actor.system, {
    _sendInspectionEvent: (inspection: { type: string; _transitions?: AnyTransitionDefinition[] }) => {
      if (inspection.type === '@xstate.microstep') taken.push(...(inspection._transitions ?? []).map(edgeOf));
    },
  });
  const scope = {
    self: actor,
    logger: () => {},
    id: '',
    sessionId: 'edges',
    defer: () => {},
    system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
  sessionMachine.transition(snapshot, event, scope);
  return taken;
};

/**
 * Edges no event sequence can take, each with the reason. Keep this list short and explained: an
 * edge that lands here because nothing reaches it any more is dead code to remove instead.
 */
const UNREACHABLE_BY_DESIGN: Record<string, string> = {};

describe('session machine paths (xstate/graph)', () => {
  const traversal = {
    input: buildInput({ socialProviders: ['Google'] }),
    events: eventsFor,
    serializeState: (snapshot: SessionSnapshot) => serializeState(snapshot),
  };
  const paths = getShortestPaths(sessionMachine, traversal);

  it('reaches every state node of the machine', () => {
    const reached = new Set(paths.flatMap((path) => activePaths(path.state.value)));
    const all = new Set(nodeByPath.keys());
    expect([...all].filter((path) => !reached.has(path))).toEqual([]);
    expect(reached).toEqual(all);
    // A sanity check on the count, so an empty definition cannot pass.
    expect(all.size).toBeGreaterThan(40);
  });

  it('takes every transition of the machine', () => {
    const taken = new Set(
      adjacencyMapToArray(getAdjacencyMap(sessionMachine as AnyStateMachine, traversal)).flatMap(({ state, event }) => edgesTaken(state, event)),
    );
    const defined = definedEdges();
    const missing = [...defined].filter((edge) => !taken.has(edge) && !(edge in UNREACHABLE_BY_DESIGN));
    expect(missing).toEqual([]);
    // Nothing is excused that is taken after all, or that the machine no longer has.
    expect(Object.keys(UNREACHABLE_BY_DESIGN).filter((edge) => taken.has(edge) || !defined.has(edge))).toEqual([]);
    expect(defined.size).toBeGreaterThan(90);
    expect(taken).toContain('signedIn.flow.ready.idle · (always)');
    expect(taken).toContain('booting.waitingForNetwork · xstate.after.networkRetry.session.booting.waitingForNetwork');
  });

  it('reaches ready only through signing in or a user found at boot', () => {
    const toReady = paths.filter((path) => activePaths(path.state.value).includes('signedIn.flow.ready.idle'));
    expect(toReady.length).toBeGreaterThan(0);
    for (const path of toReady) {
      const types = path.steps.map((step) => step.event.type);
      expect(types.some((type) => type.startsWith('xstate.done.actor.') || type === 'signIn.step')).toBe(true);
    }
  });

  it('never emits a redirect on a path that did not pass the allowlist', () => {
    const redirecting = paths.filter((path) => activePaths(path.state.value).includes('signedIn.flow.postLoad.redirecting'));
    expect(redirecting.length).toBeGreaterThan(0);
    for (const path of redirecting) {
      const request = path.steps
        .map((step) => step.event as { type: string; output?: { uri?: string } })
        .find((event) => event.type.startsWith('xstate.done.actor.') && typeof event.output?.uri === 'string');
      expect(request?.output?.uri).toBe(ALLOWED_REDIRECT);
    }
  });
});
