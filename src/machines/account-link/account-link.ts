import { fromCallback } from 'xstate';
import type { ActorRefFrom, AnyEventObject, Subscription } from 'xstate';
import type { creditsMachine } from '@/machines/session/credits.machine';
import { selectOptionalCreditBalance, selectOptionalCreditsLoading } from '@/machines/session/credits.selectors';
import type { sessionMachine } from '@/machines/session/session.machine';
import { selectCreditsRef, selectCurrentUser } from '@/machines/session/session.selectors';
import type { SessionSnapshot } from '@/machines/session/session.selectors';
import { isPageHidden } from '@/lib/page-hidden';

export type SessionRef = ActorRefFrom<typeof sessionMachine>;
type CreditsRef = ActorRefFrom<typeof creditsMachine>;
type CurrentUser = ReturnType<typeof selectCurrentUser>;

/** Who is signed in and their balance, as the session and its credits actor hold them. */
export interface Account {
  user: CurrentUser;
  credit: number | null;
  /** The balance is being fetched (a null credit then means "not known yet", not 0). */
  creditLoading: boolean;
}

/** What a machine sends its account link: fetch the balance again (it spent or got back credits). */
export type AccountLinkEvent = { type: 'credits.refresh' };

export interface AccountLinkInput {
  /** The app's session actor; null (tests, a machine on its own) links nothing. */
  session: SessionRef | null;
}

/**
 * The session's credits actor: registered in the session's actor system as `credits`, else (a
 * session that does not register it) its child of that name. It lives while someone is signed in.
 */
const creditsOf = (session: SessionRef, snapshot: SessionSnapshot): CreditsRef | undefined =>
  (session.system.get('credits') as CreditsRef | undefined) ?? selectCreditsRef(snapshot);

const accountOf = (snapshot: SessionSnapshot, credits: CreditsRef | undefined): Account => {
  const creditsSnapshot = credits?.getSnapshot();
  return {
    user: selectCurrentUser(snapshot),
    credit: selectOptionalCreditBalance(creditsSnapshot),
    creditLoading: selectOptionalCreditsLoading(creditsSnapshot),
  };
};

/**
 * An actor a machine invokes to follow the person and their balance without a React bridge
 * (issue 18): it subscribes to the session actor (given as input, since the session lives in its
 * own actor system) and to its credits actor, and sends the parent `toEvents(account, previous)`
 * at once and after every change of the user, the balance or its loading; a `credits.refresh` it
 * receives goes to the credits actor of the moment. Each machine names its own events.
 */
export function accountLink<TSent extends AnyEventObject>(toEvents: (account: Account, previous: Account | null) => TSent[]) {
  return fromCallback<AccountLinkEvent, AccountLinkInput>(({ input, sendBack, receive }) => {
    const { session } = input;
    if (!session) return undefined;
    let credits: CreditsRef | undefined;
    let creditsSubscription: Subscription | undefined;
    let previous: Account | null = null;
    const report = () => {
      const account = accountOf(session.getSnapshot(), credits);
      if (previous && account.user === previous.user && account.credit === previous.credit && account.creditLoading === previous.creditLoading) return;
      for (const event of toEvents(account, previous)) sendBack(event);
      previous = account;
    };
    const follow = (snapshot: SessionSnapshot) => {
      const next = creditsOf(session, snapshot);
      if (next !== credits) {
        creditsSubscription?.unsubscribe();
        credits = next;
        creditsSubscription = credits?.subscribe(report);
      }
      report();
    };
    const sessionSubscription = session.subscribe(follow);
    follow(session.getSnapshot());
    receive((event) => {
      if (event.type === 'credits.refresh') credits?.send(event);
    });
    return () => {
      sessionSubscription.unsubscribe();
      creditsSubscription?.unsubscribe();
    };
  });
}

/**
 * Follows the page's visibility and the browser coming back online, for a machine's `fromCallback`
 * (polling pauses while the page is hidden). Nothing is reported at once: the machine's input
 * carries the visibility it started with.
 */
export function watchPage(onVisibility: (hidden: boolean) => void, onOnline?: () => void): () => void {
  if (typeof document === 'undefined') return () => undefined;
  const visibility = () => onVisibility(isPageHidden());
  const online = () => onOnline?.();
  document.addEventListener('visibilitychange', visibility);
  window.addEventListener('online', online);
  return () => {
    document.removeEventListener('visibilitychange', visibility);
    window.removeEventListener('online', online);
  };
}
