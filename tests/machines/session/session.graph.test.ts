import { describe, expect, it } from 'vitest';
import { createEmptyActor } from 'xstate';
import type { AnyActorScope, AnyStateMachine, AnyStateNode, AnyTransitionDefinition, EventFromLogic, SnapshotFrom, StateValue } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, getStateNodes } from 'xstate/graph';
import type { StatePath } from 'xstate/graph';
import { sessionMachine } from '@/machines/session/session.machine';
import type { SessionEvent, SignInStep } from '@/machines/session/session.machine';
import type { SessionSnapshot } from '@/machines/session/session.selectors';
import { accountMachine } from '@/machines/session/account.machine';
import { authFormsMachine } from '@/machines/session/auth-forms.machine';
import { postLoadMachine } from '@/machines/session/post-load.machine';
import { tokenRefreshMachine } from '@/machines/session/token-refresh.machine';
import { ALLOWED_REDIRECT, buildInput, buildUser } from './session.fixtures';

/**
 * Model-based coverage of the session machine (ARCHITECTURE §3, §5): the shortest paths from the
 * initial state, over every event the machine accepts (actor results included), must reach every
 * state node of its definition. The list of nodes comes from the machine itself, so a state added
 * later that nothing can reach fails this test. The same goes for transitions: every (source state,
 * event) edge of the definition must be taken somewhere in the explored graph.
 */

const nodeByPath = new Map<string, AnyStateNode>(getStateNodes(sessionMachine.root).map((node) => [node.path.join('.'), node]));

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
  tokenRefresh: [undefined],
  authForms: [undefined],
  postLoad: [{ next: 'redirected' }, { next: 'reloadUser' }, { next: 'finish' }],
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

/** A machine's state nodes by path, and the events its invoked actors can answer with. */
const actorEventsOf =
  (nodeMap: Map<string, AnyStateNode>) =>
  (value: StateValue): { type: string }[] =>
    activePaths(value).flatMap((path) =>
      (nodeMap.get(path)?.invoke ?? []).flatMap((invoke) => {
        const src = typeof invoke.src === 'string' ? invoke.src : '';
        const outputs = outputsBySrc[src] ?? [];
        return [
          ...outputs.map((output) => ({ type: `xstate.done.actor.${invoke.id}`, output })),
          ...[networkError, alreadySignedIn, otherError].map((error) => ({ type: `xstate.error.actor.${invoke.id}`, error })),
        ];
      }),
    );

/** The results of the actors invoked by the active states, as the done and error events XState sends. */
const actorEvents = (snapshot: SessionSnapshot): SessionEvent[] =>
  actorEventsOf(nodeByPath)(snapshot.value) as unknown as SessionEvent[];

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
  // What the children tell the session.
  ...[user, guest, unverified, null].map((answer) => ({ type: 'account.loaded' as const, user: answer })),
  ...[networkError, otherError].map((error) => ({ type: 'account.loadFailed' as const, error })),
  { type: 'account.handleSaved', handle: 'ada', user },
  { type: 'account.handleSaved', handle: 'ada', user: null },
  { type: 'account.actionFailed', title: 'Handle not available', message: 'Taken' },
  { type: 'postLoad.showModal', modal: { kind: 'guestWelcome' } },
  { type: 'postLoad.redirect', url: `${ALLOWED_REDIRECT}?code=abc&state=s` },
  { type: 'postLoad.couponRedeemed', credits: 50 },
];

/** The forms' own events: what the session forwards, and the steps Cognito asks for. */
const formEvents = [
  ...uiEvents.filter((event) => event.type.startsWith('session.') || event.type === 'auth.redirectFailed'),
  ...signInSteps.map((step) => ({ type: 'signIn.step' as const, step })),
];

/** The state value plus the parts of context that guards read, so no guarded path is pruned. */
const serializeState = (snapshot: SessionSnapshot): string =>
  JSON.stringify({
    value: snapshot.value,
    user: snapshot.context.currentUser?.username ?? null,
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

/** Every edge a definition has, read from its state nodes (eventless ones included). */
const definedEdges = (machine: AnyStateMachine): Set<string> =>
  new Set(
    [machine.root, ...getStateNodes(machine.root)].flatMap((node) => [
      ...[...node.transitions.values()].flat().map(edgeOf),
      ...(node.always ?? []).map(edgeOf),
    ]),
  );

/**
 * A scope for the walk: XState reports each microstep's transitions (the event's own and the
 * eventless ones that follow) to the system's inspector, which this scope hands to `onEdges`.
 */
const walkScope = (onEdges: (edges: string[]) => void): AnyActorScope => {
  const actor = createEmptyActor();
  const system = Object.assign(Object.create(actor.system) as typeof actor.system, {
    _sendInspectionEvent: (inspection: { type: string; _transitions?: AnyTransitionDefinition[] }) => {
      if (inspection.type === '@xstate.microstep') onEdges((inspection._transitions ?? []).map(edgeOf));
    },
    // Every path of the walk starts its own children: their systemIds are not unique here.
    _set: () => {},
  });
  return {
    // Children take their system from their parent, this actor.
    // A parent of their own, for the children that report to the session with sendParent.
    self: Object.assign(Object.create(actor) as typeof actor, { system, _parent: createEmptyActor() }),
    logger: () => {},
    id: '',
    sessionId: 'walk',
    defer: () => {},
    system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
};

interface Walk<TSnapshot, TEvent> {
  input: unknown;
  events: (snapshot: TSnapshot) => TEvent[];
  serializeState: (snapshot: TSnapshot) => string;
}

/** The shortest paths of a machine and the edges its graph takes, in a scope of our own. */
function walk<TMachine extends AnyStateMachine>(machine: TMachine, traversal: Walk<SnapshotFrom<TMachine>, EventFromLogic<TMachine>>) {
  const taken = new Set<string>();
  const scope = walkScope((edges) => edges.forEach((edge) => taken.add(edge)));
  const logic = Object.create(machine, {
    getInitialSnapshot: { value: (_: AnyActorScope, input: unknown) => machine.getInitialSnapshot(scope, input) },
    transition: { value: (snapshot: SnapshotFrom<TMachine>, event: EventFromLogic<TMachine>) => machine.transition(snapshot, event, scope) },
  }) as TMachine;
  const paths = getShortestPaths(logic, traversal as never) as StatePath<SnapshotFrom<TMachine>, EventFromLogic<TMachine>>[];
  adjacencyMapToArray(getAdjacencyMap(logic as AnyStateMachine, traversal as never));
  // A state left at once on entry (an eventless transition without a guard, like booting.starting)
  // never rests, so no path ends in it; its transitions are counted by the edge test.
  const transient = (node: AnyStateNode) => (node.always ?? []).some((transition) => !transition.guard);
  const nodes = getStateNodes(machine.root)
    .filter((node) => !transient(node))
    .map((node) => node.path.join('.'));
  return { paths, taken, defined: definedEdges(machine), nodes };
}

/** The events a child's active states accept: its own types, with the payloads above where known. */
const childEventsFor =
  <TSnapshot extends { value: StateValue }>(machine: AnyStateMachine, withPayload: readonly ({ type: string } & Record<string, unknown>)[]) =>
  (snapshot: TSnapshot) => {
    const nodeMap = new Map<string, AnyStateNode>(getStateNodes(machine.root).map((node) => [node.path.join('.'), node]));
    const candidates = [...withPayload, ...actorEventsOf(nodeMap)(snapshot.value)];
    const ownTypes = new Set([...machine.root.ownEvents, ...activePaths(snapshot.value).flatMap((path) => nodeMap.get(path)?.ownEvents ?? [])]);
    return [...ownTypes].flatMap((type) => {
      const matching = candidates.filter((event) => event.type === type);
      return matching.length > 0 ? matching : [{ type }];
    });
  };

/** The graph tests of one machine: every state node reached, every edge taken. */
function itCoversEveryStateAndTransition(
  graph: { paths: { state: { value: StateValue } }[]; taken: Set<string>; defined: Set<string>; nodes: string[] },
  unreachableByDesign: Record<string, string> = {},
) {
  it('reaches every state node of the machine', () => {
    const reached = new Set(graph.paths.flatMap((path) => activePaths(path.state.value)));
    expect(graph.nodes.filter((path) => !reached.has(path))).toEqual([]);
    expect(reached).toEqual(new Set(graph.nodes));
  });

  it('takes every transition of the machine', () => {
    const missing = [...graph.defined].filter((edge) => !graph.taken.has(edge) && !(edge in unreachableByDesign));
    expect(missing).toEqual([]);
    // Nothing is excused that is taken after all, or that the machine no longer has.
    expect(Object.keys(unreachableByDesign).filter((edge) => graph.taken.has(edge) || !graph.defined.has(edge))).toEqual([]);
  });
}

/**
 * Edges no event sequence can take, each with the reason. Keep this list short and explained: an
 * edge that lands here because nothing reaches it any more is dead code to remove instead.
 */
const UNREACHABLE_BY_DESIGN: Record<string, string> = {};

const rootGraph = walk(sessionMachine, {
  input: buildInput({ socialProviders: ['Google'] }),
  events: eventsFor,
  serializeState: (snapshot: SessionSnapshot) => serializeState(snapshot),
});

const tokenRefreshGraph = walk(tokenRefreshMachine, {
  input: undefined,
  events: childEventsFor(tokenRefreshMachine, [
    { type: 'auth.tokenRefreshFailed', networkError: true },
    { type: 'auth.tokenRefreshFailed', networkError: false },
  ]) as never,
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
});

const authFormsGraph = walk(authFormsMachine, {
  input: { authFlowType: 'USER_PASSWORD_AUTH', guestPassword: 'guest-password', socialProviders: ['Google'], authError: null },
  events: childEventsFor(authFormsMachine, formEvents) as never,
  serializeState: (snapshot) =>
    JSON.stringify({
      value: snapshot.value,
      pendingEmail: snapshot.context.pendingEmail !== null,
      mfaOptions: snapshot.context.mfaOptions,
    }),
});

const accountGraph = walk(accountMachine, {
  input: undefined,
  events: childEventsFor(accountMachine, [{ type: 'session.setHandle', handle: 'ada' }]) as never,
  serializeState: (snapshot) => JSON.stringify({ value: snapshot.value, pendingHandle: snapshot.context.pendingHandle !== null }),
});

const postLoadInputs = [user, guest].map((who) => ({ user: who, search: '', redirectAllowlist: [ALLOWED_REDIRECT] }));
const postLoadGraphs = postLoadInputs.map((input) =>
  walk(postLoadMachine, {
    input,
    events: childEventsFor(postLoadMachine, [{ type: 'location.changed', pathname: '/', search: '' }]) as never,
    serializeState: (snapshot) => JSON.stringify({ value: snapshot.value, redirect: snapshot.context.pendingRedirect?.uri ?? null }),
  }),
);
/** The post-load steps for a registered user and for the guest, as one graph. */
const postLoadGraph = {
  paths: postLoadGraphs.flatMap((graph) => graph.paths),
  taken: new Set(postLoadGraphs.flatMap((graph) => [...graph.taken])),
  defined: postLoadGraphs[0]!.defined,
  nodes: postLoadGraphs[0]!.nodes,
};

/** The session's machines: the root and the children it invokes, each walked on its own. */
const SESSION_GRAPHS = [rootGraph, authFormsGraph, accountGraph, postLoadGraph, tokenRefreshGraph];

describe('session machines (xstate/graph)', () => {
  it('the session as a whole has its states and edges (sanity: an empty definition cannot pass)', () => {
    expect(SESSION_GRAPHS.reduce((sum, graph) => sum + graph.nodes.length, 0)).toBeGreaterThan(40);
    expect(SESSION_GRAPHS.reduce((sum, graph) => sum + graph.defined.size, 0)).toBeGreaterThan(90);
  });
});

describe('session root paths (xstate/graph)', () => {
  const { paths } = rootGraph;
  itCoversEveryStateAndTransition(rootGraph, UNREACHABLE_BY_DESIGN);

  it('starts a visitor signed out, and anyone else looking for their session', () => {
    const visitorStart = walk(sessionMachine, { input: buildInput({ visitor: true }), events: () => [], serializeState });
    expect(visitorStart.paths.map((path) => activePaths(path.state.value))).toEqual([expect.arrayContaining(['signedOut'])]);
    const shortest = [...paths].sort((a, b) => a.steps.length - b.steps.length)[0];
    expect(activePaths(shortest!.state.value)).toContain('booting.loading');
  });

  it('takes the eventless reload and the boot back-off', () => {
    expect(rootGraph.taken).toContain('signedIn.flow.ready.idle · (always)');
    expect(rootGraph.taken).toContain('booting.waitingForNetwork · xstate.after.networkRetry.session.booting.waitingForNetwork');
  });

  it('reaches ready only through signing in or a user found at boot', () => {
    const toReady = paths.filter((path) => activePaths(path.state.value).includes('signedIn.flow.ready.idle'));
    expect(toReady.length).toBeGreaterThan(0);
    for (const path of toReady) {
      const types: string[] = path.steps.map((step) => step.event.type);
      // The forms' end (their `signIn.step` of kind done) reaches the root as their done event.
      expect(types.some((type) => type.startsWith('xstate.done.actor.') || type === 'signIn.step')).toBe(true);
    }
  });
});

describe('tokenRefresh child paths (xstate/graph)', () => {
  itCoversEveryStateAndTransition(tokenRefreshGraph);

  it('takes the 50-minute refresh and the offline back-off', () => {
    expect(tokenRefreshGraph.taken).toContain('fresh · xstate.after.sessionRefresh.tokenRefresh.fresh');
    expect(tokenRefreshGraph.taken).toContain('offline · xstate.after.networkRetry.tokenRefresh.offline');
  });
});

describe('authForms child paths (xstate/graph)', () => {
  itCoversEveryStateAndTransition(authFormsGraph);

  it('ends signed in only after a sign-in step of kind done or an already signed-in user', () => {
    const toSignedIn = authFormsGraph.paths.filter((path) => path.state.value === 'signedIn');
    expect(toSignedIn.length).toBeGreaterThan(0);
    for (const path of toSignedIn) {
      const last = path.steps.at(-1)?.event as { type: string; step?: SignInStep; error?: Error } | undefined;
      expect(last?.step?.kind === 'done' || last?.error?.name === 'UserAlreadyAuthenticatedException').toBe(true);
    }
  });
});

describe('account child paths (xstate/graph)', () => {
  itCoversEveryStateAndTransition(accountGraph);
});

describe('postLoad child paths (xstate/graph)', () => {
  itCoversEveryStateAndTransition(postLoadGraph);

  it('never emits a redirect on a path that did not pass the allowlist', () => {
    const redirecting = postLoadGraph.paths.filter((path) => activePaths(path.state.value).includes('redirecting'));
    expect(redirecting.length).toBeGreaterThan(0);
    for (const path of redirecting) {
      const request = path.steps
        .map((step) => step.event as { type: string; output?: { uri?: string } })
        .find((event) => event.type.startsWith('xstate.done.actor.') && typeof event.output?.uri === 'string');
      expect(request?.output?.uri).toBe(ALLOWED_REDIRECT);
    }
  });
});
