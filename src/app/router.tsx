import { lazy, useEffect, type ComponentType } from 'react';
import {
  createBrowserRouter,
  redirect,
  useLoaderData,
  useLocation,
  useNavigate,
  useRouteError,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router-dom';
import { ErrorFallback } from '@/app/error-boundary';
import { Shell } from '@/app/shell';
import { useTelemetry } from '@/app/telemetry-context';
import { PageLoader } from '@/components/page-loader';
import { MENU, type MenuGroup } from '@/config/menu';
import { profileHandleFromPath, ROUTES } from '@/config/routes';
import { USE_CASE_PAGES } from '@/config/use-cases';
import { HomeScreen } from '@/screens/home/home-screen';

/** Screens other than home are split into their own chunks, so the first page loads little JS. */
function lazyScreen<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): ComponentType<P> {
  return lazy<ComponentType<P>>(async () => ({ default: (await load())[name] }));
}

const NotFoundScreen = lazyScreen(() => import('@/screens/not-found/not-found-screen'), 'NotFoundScreen');
const AccountScreen = lazyScreen(() => import('@/screens/account/account-screen'), 'AccountScreen');
const AuthenticationScreen = lazyScreen(
  () => import('@/screens/authentication/authentication-screen'),
  'AuthenticationScreen',
);
const ProfileScreen = lazyScreen(() => import('@/screens/profile/profile-screen'), 'ProfileScreen');
const ToolPlaceholderScreen = lazyScreen(
  () => import('@/screens/tools/tool-placeholder-screen'),
  'ToolPlaceholderScreen',
);
const GroupIndexScreen = lazyScreen(() => import('@/screens/tools/group-index-screen'), 'GroupIndexScreen');
const UseCaseScreen = lazyScreen(() => import('@/screens/use-cases/use-case-screen'), 'UseCaseScreen');

const videoGroup = MENU.find((group) => group.path === ROUTES.aiVideo.root);

/** Parallax motion (SPEC §2.4) has a page but no menu link. */
const EXTRA_TOOLS = [
  { title: 'Parallax Motion', path: ROUTES.aiVideo.parallaxMotion, group: videoGroup },
] as const;

/**
 * React Router cannot put "@" in front of a parameter, so `/:handle` catches every one-segment
 * path and anything that is not `/@handle` goes to the not-found page (SPEC §2.1) before rendering.
 */
export function profileLoader({ request }: LoaderFunctionArgs): string | Response {
  const handle = profileHandleFromPath(new URL(request.url).pathname);
  return handle ?? redirect(ROUTES.notFound);
}

function ProfileRoute() {
  const handle = useLoaderData<typeof profileLoader>();
  return <ProfileScreen handle={typeof handle === 'string' ? handle : ''} />;
}

/** Errors that escape the shell itself (or a loader) land here; retrying re-renders the page. */
function RouteErrorScreen() {
  const error = useRouteError();
  const { reportError } = useTelemetry();
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => reportError(error), [error, reportError]);
  return <ErrorFallback onRetry={() => void navigate(location, { replace: true })} />;
}

function toolRoute(title: string, path: string, group: MenuGroup | undefined): RouteObject {
  return {
    path,
    element: <ToolPlaceholderScreen title={title} groupLabel={group?.label ?? ''} groupPath={group?.path ?? ROUTES.home} />,
  };
}

export const routes: RouteObject[] = [
  {
    element: <Shell />,
    errorElement: <RouteErrorScreen />,
    // Shown while the first page's loader (the "@" check, the unknown-path redirect) runs.
    hydrateFallbackElement: <PageLoader />,
    children: [
      { index: true, element: <HomeScreen /> },
      { path: ROUTES.authentication, element: <AuthenticationScreen /> },
      { path: ROUTES.account, element: <AccountScreen /> },
      { path: ROUTES.notFound, element: <NotFoundScreen /> },
      ...MENU.flatMap((group): RouteObject[] => [
        { path: group.path, element: <GroupIndexScreen group={group} /> },
        ...group.items.map((item) => toolRoute(item.label, item.path, group)),
      ]),
      ...EXTRA_TOOLS.map((tool) => toolRoute(tool.title, tool.path, tool.group)),
      ...USE_CASE_PAGES.map((useCase) => ({ path: useCase.path, element: <UseCaseScreen title={useCase.title} /> })),
      { path: '/:handle', loader: profileLoader, element: <ProfileRoute /> },
      // Redirecting in a loader means the unknown path never renders nor counts as a page view.
      { path: '*', loader: () => redirect(ROUTES.notFound), element: null },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
export type AppRouter = ReturnType<typeof createAppRouter>;
