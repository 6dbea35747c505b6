import { Anchor, Avatar, Badge, Button, Group, Skeleton, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { Menu } from '@/components/session/lazy-menu';
import { useCanInspect } from '@/components/inspector/use-can-inspect';
import { SessionActorContext } from '@/components/session/session-context';
import { VerifyEmailMenuItem } from '@/components/session/verify-email-menu-item';
import { HISTORY_TEXTS } from '@/config/history-texts';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import { ROUTES } from '@/config/routes';
import { selectOptionalCreditBalance, selectOptionalCreditsLoading } from '@/machines/session/credits.selectors';
import {
  selectCreditsRef,
  selectCurrentUser,
  selectIsOffline,
  selectIsSignedIn,
  selectSessionStatus,
} from '@/machines/session/session.selectors';
import classes from '@/components/session/header-account.module.css';

/** The first letter of a handle or e-mail address, as the phone header's account badge shows it. */
const initialOf = (name: string): string => (Array.from(name)[0] ?? '?').toUpperCase();

/** The signed-in user's balance, "{n} credits", with a skeleton while it loads. */
function CreditBalance() {
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const balance = useSelector(creditsRef, selectOptionalCreditBalance);
  const loading = useSelector(creditsRef, selectOptionalCreditsLoading);
  if (balance === null && (loading || !creditsRef)) {
    return <Skeleton height={20} width={80} radius="sm" role="status" aria-label="Credit balance" aria-busy="true" />;
  }
  // The balance opens the credits page (buy, auto-refill, history); the live region stays on the text.
  return (
    <Anchor component={Link} to={ROUTES.credits} fw={600} c="inherit" underline="hover" style={{ whiteSpace: 'nowrap' }}>
      <span role="status" aria-label="Credit balance" className={classes.balance}>
        {balance === null ? '—' : balance}
        <span className={classes.unit}> credits</span>
      </span>
    </Anchor>
  );
}

/**
 * The right end of the header: signed in → balance and the account menu (and an offline note
 * when the network is gone); signed out → a link to sign in.
 */
export function HeaderAccount({ onNavigate }: { onNavigate?: () => void }) {
  const session = SessionActorContext.useActorRef();
  const status = SessionActorContext.useSelector(selectSessionStatus);
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const offline = SessionActorContext.useSelector(selectIsOffline);
  const mayInspect = useCanInspect();

  // Until the session knows who is there, neither "Sign in" nor an account shows.
  if (status === 'booting' || (status === 'loadingUser' && !user)) {
    return <Skeleton height={20} width={80} radius="sm" aria-hidden="true" />;
  }
  if (!signedIn || !user) {
    return (
      <Anchor component={Link} to={ROUTES.authentication} onClick={onNavigate}>
        Sign in
      </Anchor>
    );
  }
  const name = user.attributes.preferred_username ?? user.attributes.email ?? user.username;
  return (
    <Group gap="xs" wrap="nowrap">
      {offline && (
        <Badge color="yellow" variant="light" role="status">
          offline — you stay signed in
        </Badge>
      )}
      <CreditBalance />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          {/* On phones only the name's initial shows, in a round badge: the full name does not fit. */}
          <Button variant="subtle" aria-label="Account menu" maw={{ base: 44, sm: 220 }} px={{ base: 4, sm: 'md' }}>
            <Text span truncate="end" inherit visibleFrom="sm">
              {name}
            </Text>
            <Avatar component="span" hiddenFrom="sm" size={30} radius="xl" color="violet" aria-hidden="true">
              {initialOf(name)}
            </Avatar>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to={ROUTES.account} onClick={onNavigate}>
            Account
          </Menu.Item>
          {user.attributes.preferred_username && (
            <Menu.Item component={Link} to={ROUTES.profile(user.attributes.preferred_username)} onClick={onNavigate}>
              Your profile
            </Menu.Item>
          )}
          <Menu.Item component={Link} to={ROUTES.history} onClick={onNavigate}>
            {HISTORY_TEXTS.menuLink}
          </Menu.Item>
          <Menu.Item component={Link} to={ROUTES.library} onClick={onNavigate}>
            {LIBRARY_TEXTS.menuLink}
          </Menu.Item>
          <Menu.Item component={Link} to={ROUTES.credits} onClick={onNavigate}>
            Credits and billing
          </Menu.Item>
          <Menu.Item component={Link} to={ROUTES.assets} onClick={onNavigate}>
            Assets
          </Menu.Item>
          <Menu.Item component={Link} to={ROUTES.organisation} onClick={onNavigate}>
            Organisation
          </Menu.Item>
          {mayInspect && (
            <Menu.Item component={Link} to={ROUTES.inspector} onClick={onNavigate}>
              {INSPECTOR_TEXTS.menuLink}
            </Menu.Item>
          )}
          <VerifyEmailMenuItem />
          <Menu.Item onClick={() => session.send({ type: 'session.signOut' })}>Sign out</Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
