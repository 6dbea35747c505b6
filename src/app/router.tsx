import { isValidElement, useEffect } from 'react';
import {
  createBrowserRouter,
  matchRoutes,
  redirect,
  useLoaderData,
  useLocation,
  useNavigate,
  useParams,
  useRouteError,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router-dom';
import { ErrorFallback } from '@/app/error-boundary';
import { lazyScreen, type LazyScreen } from '@/app/lazy-screen';
import type { PageHandle } from '@/app/page-title';
import { reloadPage } from '@/app/reload-page';
import { Shell } from '@/app/shell';
import { useTelemetry } from '@/app/telemetry-context';
import { PageLoader } from '@/components/page-loader';
import { CREATION_TYPES } from '@/config/creation-types';
import { GENERATION_TOOLS } from '@/config/generation-tools';
import { HISTORY_TEXTS } from '@/config/history-texts';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import { TOOL_TEXTS } from '@/config/job-texts';
import { MENU, type MenuGroup } from '@/config/menu';
import { profileHandleFromPath, ROUTES } from '@/config/routes';
import { USE_CASE_PAGES } from '@/config/use-cases';
import { isChunkLoadError } from '@/lib/chunk-load';
import { HomeScreen } from '@/screens/home/home-screen';

// Screens other than home are split into their own chunks, so the first page loads little JS.
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
const GenerationToolScreen = lazyScreen(
  () => import('@/screens/tools/generation-tool-screen'),
  'GenerationToolScreen',
);
const VideoCreationScreen = lazyScreen(() => import('@/screens/video/video-creation-screen'), 'VideoCreationScreen');
const FinetuneScreen = lazyScreen(() => import('@/screens/finetune/finetune-screen'), 'FinetuneScreen');
const AlbumsScreen = lazyScreen(() => import('@/screens/albums/albums-screen'), 'AlbumsScreen');
const AlbumScreen = lazyScreen(() => import('@/screens/albums/album-screen'), 'AlbumScreen');
const StoryScreen = lazyScreen(() => import('@/screens/story/story-screen'), 'StoryScreen');
const UploadScreen = lazyScreen(() => import('@/screens/tools/upload-screen'), 'UploadScreen');
const GroupIndexScreen = lazyScreen(() => import('@/screens/tools/group-index-screen'), 'GroupIndexScreen');
const CreditsScreen = lazyScreen(() => import('@/screens/credits/credits-screen'), 'CreditsScreen');
const OrganisationScreen = lazyScreen(() => import('@/screens/organisation/organisation-screen'), 'OrganisationScreen');
const LatestScreen = lazyScreen(() => import('@/screens/content/latest-screen'), 'LatestScreen');
const SharedScreen = lazyScreen(() => import('@/screens/content/shared-screen'), 'SharedScreen');
const AssetsScreen = lazyScreen(() => import('@/screens/assets/assets-screen'), 'AssetsScreen');
const ContactScreen = lazyScreen(() => import('@/screens/contact/contact-screen'), 'ContactScreen');
const InspectorScreen = lazyScreen(() => import('@/screens/inspector/inspector-screen'), 'InspectorScreen');
const HistoryScreen = lazyScreen(() => import('@/screens/history/history-screen'), 'HistoryScreen');
const LibraryScreen = lazyScreen(() => import('@/screens/library/library-screen'), 'LibraryScreen');
const UseCaseScreen = lazyScreen(() => import('@/screens/use-cases/use-case-screen'), 'UseCaseScreen');

const videoGroup = MENU.find((group) => group.path === ROUTES.aiVideo.root);
const imageGroup = MENU.find((group) => group.path === ROUTES.aiImage.root);
const audioGroup = MENU.find((group) => group.path === ROUTES.aiAudio.root);

/**
 * Pages without a menu link: parallax motion (SPEC §2.4), reimagine (reached from Image to Image)
 * and the two upload pages (SPEC §2.5, linked from the group pages and the picture inputs).
 */
const EXTRA_TOOLS = [
  { title: 'Parallax Motion', path: ROUTES.aiVideo.parallaxMotion, group: videoGroup },
  { title: 'Reimagine', path: ROUTES.aiImage.reimagine, group: imageGroup },
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

/**
 * Errors that escape the shell itself (or a loader) land here; retrying re-renders the page, or
 * reloads it when a chunk could not be downloaded.
 */
function RouteErrorScreen() {
  const error = useRouteError();
  const { reportError } = useTelemetry();
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => reportError(error), [error, reportError]);
  const retry = isChunkLoadError(error) ? reloadPage : () => void navigate(location, { replace: true });
  return <ErrorFallback onRetry={retry} />;
}

/** Names the page in the document title (see `useDocumentTitle`). */
const titled = (title: PageHandle['title']): PageHandle => ({ title });

/** The profile title is the handle the loader read; a redirect never renders, so it needs none. */
const profileTitle = (handle: unknown): string => (typeof handle === 'string' ? `@${handle}` : 'Profile');

/** The page of each SPEC §2.4 creation type that has one. */
const CREATION_PAGES = CREATION_TYPES.flatMap((type) => (type.route ? [{ type: type.type, path: type.route }] : []));

/** Keyed by id so another organisation, shared item or asset starts afresh. */
function OrganisationRoute() {
  const { id } = useParams();
  return <OrganisationScreen key={id ?? 'list'} id={id ?? null} />;
}

function SharedRoute() {
  const { id } = useParams();
  return <SharedScreen key={id} id={id ?? ''} />;
}

function AssetRoute() {
  const { id } = useParams();
  return <AssetsScreen key={id ?? 'list'} id={id ?? null} />;
}

function AlbumRoute() {
  const { id } = useParams();
  return <AlbumScreen key={id} id={id ?? ''} />;
}

/** One story of AI Story, resumed where the person left it; keyed by id so another story starts afresh. */
function StoryRoute() {
  const { id } = useParams();
  return <StoryScreen key={id} id={id ?? ''} />;
}

/**
 * Each tool page: a generation tool (image, audio, video editing), a video creation type, LoRA
 * Finetune, or AI Story (a new story, then the person's stories).
 */
function toolRoute(title: string, path: string, group: MenuGroup | undefined): RouteObject {
  const groupLabel = group?.label ?? '';
  const groupPath = group?.path ?? ROUTES.home;
  const spec = GENERATION_TOOLS.find((tool) => tool.path === path);
  const creation = CREATION_PAGES.find((page) => page.path === path);
  let element;
  if (spec) {
    // Keyed by tool, so moving between two tool pages starts a fresh form and history.
    element = <GenerationToolScreen key={spec.slug} spec={spec} groupLabel={groupLabel} groupPath={groupPath} />;
  } else if (creation) {
    element = (
      <VideoCreationScreen key={creation.type} type={creation.type} title={title} groupLabel={groupLabel} groupPath={groupPath} />
    );
  } else if (path === ROUTES.aiProduction.finetune) {
    element = <FinetuneScreen groupLabel={groupLabel} groupPath={groupPath} />;
  } else if (path === ROUTES.aiProduction.aiStory) {
    element = <StoryScreen key="new" id={null} />;
  } else {
    element = <ToolPlaceholderScreen title={title} groupLabel={groupLabel} groupPath={groupPath} />;
  }
  return { path, handle: titled(title), element };
}

const UPLOAD_PAGES = [
  { kind: 'image', title: TOOL_TEXTS.uploadPageTitle.image, path: ROUTES.aiImage.uploadImage, group: imageGroup },
  { kind: 'audio', title: TOOL_TEXTS.uploadPageTitle.audio, path: ROUTES.aiAudio.uploadAudio, group: audioGroup },
  { kind: 'video', title: TOOL_TEXTS.uploadPageTitle.video, path: ROUTES.aiVideo.uploadVideo, group: videoGroup },
] as const;

export const routes: RouteObject[] = [
  {
    element: <Shell />,
    errorElement: <RouteErrorScreen />,
    // Shown while the first page's loader (the "@" check, the unknown-path redirect) runs.
    hydrateFallbackElement: <PageLoader />,
    children: [
      { index: true, element: <HomeScreen /> },
      { path: ROUTES.authentication, handle: titled('Sign in'), element: <AuthenticationScreen /> },
      { path: ROUTES.account, handle: titled('Account'), element: <AccountScreen /> },
      { path: ROUTES.notFound, handle: titled('Page not found'), element: <NotFoundScreen /> },
      { path: ROUTES.credits, handle: titled('Credits'), element: <CreditsScreen /> },
      { path: ROUTES.latest, handle: titled('Latest'), element: <LatestScreen /> },
      { path: '/shared/:id', handle: titled('Shared'), element: <SharedRoute /> },
      { path: ROUTES.assets, handle: titled('Assets'), element: <AssetRoute /> },
      { path: `${ROUTES.assets}/:id`, handle: titled('Asset'), element: <AssetRoute /> },
      { path: ROUTES.organisation, handle: titled('Organisation'), element: <OrganisationRoute /> },
      { path: `${ROUTES.organisation}/:id`, handle: titled('Organisation'), element: <OrganisationRoute /> },
      { path: ROUTES.contact, handle: titled('Contact us'), element: <ContactScreen /> },
      { path: ROUTES.inspector, handle: titled('Machine inspector'), element: <InspectorScreen /> },
      { path: ROUTES.history, handle: titled(HISTORY_TEXTS.title), element: <HistoryScreen /> },
      { path: ROUTES.library, handle: titled(LIBRARY_TEXTS.title), element: <LibraryScreen /> },
      ...MENU.flatMap((group): RouteObject[] => [
        { path: group.path, handle: titled(group.label), element: <GroupIndexScreen group={group} /> },
        ...group.items.map((item) => toolRoute(item.label, item.path, group)),
      ]),
      ...EXTRA_TOOLS.map((tool) => toolRoute(tool.title, tool.path, tool.group)),
      ...UPLOAD_PAGES.map((page) => ({
        path: page.path,
        handle: titled(page.title),
        element: (
          <UploadScreen
            key={page.kind}
            kind={page.kind}
            title={page.title}
            groupLabel={page.group?.label ?? ''}
            groupPath={page.group?.path ?? ROUTES.home}
          />
        ),
      })),
      { path: ROUTES.aiVideo.albums, handle: titled('Albums'), element: <AlbumsScreen /> },
      { path: `${ROUTES.aiVideo.albums}/:id`, handle: titled('Album'), element: <AlbumRoute /> },
      { path: `${ROUTES.aiProduction.aiStory}/:id`, handle: titled('AI Story'), element: <StoryRoute /> },
      ...USE_CASE_PAGES.map((useCase) => ({
        path: useCase.path,
        handle: titled(useCase.title),
        element: <UseCaseScreen title={useCase.title} />,
      })),
      { path: '/:handle', loader: profileLoader, handle: titled(profileTitle), element: <ProfileRoute /> },
      // Redirecting in a loader means the unknown path never renders nor counts as a page view.
      { path: '*', loader: () => redirect(ROUTES.notFound), element: null },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);

/** Downloads the lazy screens the routes matching `pathname` draw (see lazyScreen's preload). */
export async function preloadScreens(pathname: string): Promise<void> {
  const screens = (matchRoutes(routes, pathname) ?? []).flatMap(({ route }) => {
    const type: unknown = isValidElement(route.element) ? route.element.type : null;
    return typeof type === 'function' && 'preload' in type ? [(type as LazyScreen<object>).preload()] : [];
  });
  await Promise.all(screens);
}
export type AppRouter = ReturnType<typeof createAppRouter>;
