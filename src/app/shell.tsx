import { Anchor, Burger, Group, NavLink, Skeleton, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { memo, Suspense, useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '@/app/error-boundary';
import { useDocumentTitle } from '@/app/page-title';
import { useTelemetry } from '@/app/telemetry-context';
import { MOBILE_MEDIA_QUERY } from '@/app/theme';
import { usePageViews } from '@/app/use-page-views';
import { useRouteFocus } from '@/app/use-route-focus';
import { lazyScreen } from '@/app/lazy-screen';
import { useJobToasts } from '@/app/use-job-toasts';
import { useHydrated } from '@/app/use-hydrated';
import { useSessionBridge } from '@/app/use-session-bridge';
import { TopBanner } from '@/components/banner/top-banner';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { HeaderAccount } from '@/components/session/header-account';
import { SessionActorContext } from '@/components/session/session-context';
import { SessionOverlays } from '@/components/session/session-overlays';
import { MenuGroups, isCurrentPath as isCurrent } from '@/components/navigation/menu-groups';
import { PageLoader } from '@/components/page-loader';
import { HEADER_HEIGHT_PX } from '@/config/limits';
import { ROUTES } from '@/config/routes';
import { supportEmail } from '@/config/support';
import { selectLiveCount } from '@/machines/jobs/jobs.selectors';
import { selectIsSignedIn } from '@/machines/session/session.selectors';
import classes from '@/app/shell.module.css';

// The panel (a drawer and its job rows) loads on its own once someone is signed in: the first page
// of a visitor does not need it.
const JobsPanel = lazyScreen(() => import('@/components/jobs/jobs-panel'), 'JobsPanel');

/**
 * What the shell keeps in step without drawing anything: the document title (with the number of
 * running jobs), page views, the session's requests to the router, the jobs' toasts. Apart from
 * the layout, so a job or session change redraws none of it (issue 19: each such change is a
 * synchronous render).
 */
function ShellEffects() {
  const telemetry = useTelemetry();
  usePageViews(telemetry.analytics);
  useDocumentTitle(JobsActorContext.useSelector(selectLiveCount));
  useSessionBridge();
  useJobToasts();
  return null;
}

/** The jobs panel's button, for a signed-in person only. */
function HeaderJobs() {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  if (!signedIn) return null;
  // The placeholder is no wider than the button it stands for (narrower on phones, where the
  // button's edges are narrower): at 320 px the header has no pixel to spare (issue 17).
  return (
    <Suspense fallback={<Skeleton height={30} w={{ base: 48, sm: 64 }} radius="sm" aria-hidden="true" />}>
      <JobsPanel />
    </Suspense>
  );
}

/**
 * A prerendered page's forms and buttons are drawn before its scripts run: until React has taken
 * them over they are disabled, so a form sent early is not sent by the browser itself (a GET with
 * the password in the address) and a click is not lost. Its own component: when it enables the
 * page, the page (`children`, the same element) is not drawn again.
 */
function PageControls({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset disabled={!hydrated} className={classes.pageControls}>
      {children}
    </fieldset>
  );
}

/** The menu is drawn again only when the page changes, not when the shell does (a phone's menu toggle). */
const Menu = memo(MenuGroups);

/** The page of the current route; one element for the shell's lifetime, so a redraw of the shell never changes it. */
const PAGE = (
  <Suspense fallback={<PageLoader />}>
    <Outlet />
  </Suspense>
);

const SHELL_STYLE = { '--shell-header-height': `${HEADER_HEIGHT_PX}px` } as CSSProperties;

/**
 * The header and the menu of SPEC §2.3 (collapsible groups). Below the `sm` breakpoint (768 px,
 * SPEC §2.11) the menu folds behind a burger; between `sm` and `md` (tablet, below 1024 px) it is
 * narrower. The menu's state lives here, so opening it redraws neither the page nor its frame.
 */
function ShellNavigation() {
  const [menuOpened, { toggle: toggleMenu, close: closeMenu }] = useDisclosure(false);
  // Below 768 px the folded menu is only moved off-screen; `inert` keeps it out of the Tab order too.
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY) ?? false;
  const menuFolded = isMobile && !menuOpened;
  const mobileMenuShown = isMobile && menuOpened;
  const burgerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  // The opened mobile menu covers the page: focus goes into it, and Escape folds it again and
  // hands focus back to the burger.
  useEffect(() => {
    if (!mobileMenuShown) return;
    menuRef.current?.querySelector<HTMLElement>('a[href]')?.focus();
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      closeMenu();
      burgerRef.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [mobileMenuShown, closeMenu]);

  return (
    <>
      <header className={classes.header}>
        {/* Phones get narrower edges and gaps: at 320 px every header control still fits (issue 17). */}
        <Group h="100%" px={{ base: 'xs', sm: 'md' }} gap="xs" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger
              ref={burgerRef}
              opened={menuOpened}
              onClick={toggleMenu}
              hiddenFrom="sm"
              size="sm"
              aria-label={menuOpened ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpened}
              aria-controls="main-menu"
            />
            <Anchor component={Link} to={ROUTES.home} underline="never" c="inherit" onClick={closeMenu}>
              <Text component="span" fw={800} fz={{ base: 'lg', sm: 'xl' }}>
                Kinora
              </Text>
            </Anchor>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <HeaderJobs />
            <HeaderAccount onNavigate={closeMenu} />
          </Group>
        </Group>
      </header>

      <nav
        ref={menuRef}
        id="main-menu"
        aria-label="Main menu"
        className={classes.navbar}
        data-opened={menuOpened || undefined}
        inert={menuFolded}
      >
        {/* Native scrolling: Mantine's ScrollArea would bring floating-ui into the initial bundle. */}
        <div className={classes.menuScroll}>
          <Menu pathname={pathname} onNavigate={closeMenu} />
        </div>
        <section className={classes.more} aria-label="More">
          <NavLink
            component={Link}
            to={ROUTES.latest}
            label="Latest from creators"
            active={isCurrent(pathname, ROUTES.latest)}
            aria-current={isCurrent(pathname, ROUTES.latest) ? 'page' : undefined}
            onClick={closeMenu}
          />
          <NavLink
            component={Link}
            to={ROUTES.contact}
            label="Contact us"
            active={isCurrent(pathname, ROUTES.contact)}
            aria-current={isCurrent(pathname, ROUTES.contact) ? 'page' : undefined}
            onClick={closeMenu}
          />
          <Text size="sm" c="dimmed" px="sm" pb="xs">
            Help: <Anchor href={`mailto:${supportEmail()}`} size="sm">{supportEmail()}</Anchor>
          </Text>
        </section>
      </nav>
    </>
  );
}

/**
 * The layout around every page: the header with the logo and the account, the menu, and the main
 * area with the top banner (a fixed header and menu drawn by shell.module.css: Mantine's AppShell
 * updated itself right after React took a prerendered page over, which made React take over the
 * whole page in one long task, and it computed its responsive styles in script). Each page change
 * sets the document title and moves focus to the new page. The shell also connects the session
 * actor to the router and shows its overlays (SPEC §2.9 items 1–3), shows what the jobs registry
 * announces (toasts, notifications) and offers the jobs panel to a signed-in person.
 */
export function Shell() {
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const telemetry = useTelemetry();
  useRouteFocus(pathname, mainRef);

  return (
    <div className={classes.shell} style={SHELL_STYLE}>
      <a href="#main-content" className={classes.skipLink}>
        Skip to content
      </a>
      {/* The burger and the menu's group toggles too: a click before React has the page would be lost. */}
      <PageControls>
        <ShellNavigation />
      </PageControls>
      <main ref={mainRef} id="main-content" tabIndex={-1} className={classes.main}>
        <TopBanner />
        <ErrorBoundary resetKey={pathname} onError={telemetry.reportError}>
          <PageControls>{PAGE}</PageControls>
        </ErrorBoundary>
      </main>
      <SessionOverlays />
      <ShellEffects />
    </div>
  );
}
