import { http } from 'msw';
import { CONTENT_PAGE_SIZE, type Visibility } from '@/config/sharing';
import { shareRequestSchema, type PublicContent } from '@/services/schemas/content';
import type { PromoVideo } from '@/services/schemas/promo-videos';
import type { PublicUser } from '@/services/schemas/users';
// Not imported from handlers.ts, which registers these handlers: its values would not exist yet.
import { fakeMedia } from './media';
import { answer, API, detail, isSignedIn, publicContent } from './data';

/**
 * A small stand-in for the sharing calls of issue 7 (contract "Sharing, profiles, latest"):
 * public profiles (GET users/{id}?type=), a person's and everyone's shared content (POST
 * users/{id}/contents, users/latest-contents: keyword on title/description, pages of `pageSize`
 * by an offset cursor), one shared item (GET media/{id}/view), the sharing form (PUT
 * media/{id}/share on the fake media store of tests/msw/media.ts) and the promo videos.
 * Tests shape it through `fakeContent` and call `resetFakeContent()` before each test.
 */

interface FakeShare {
  title: string;
  description: string;
  visibility: Visibility;
  shared_at: string | null;
}

interface FakeContentState {
  users: PublicUser[];
  /** Every shared item, newest first (what the listings page through). */
  contents: PublicContent[];
  pageSize: number;
  /** Body and path of every listing call, in order. */
  listings: { path: string; keyword: string; next_start_keys: string | null; signedIn: boolean }[];
  /** Sharing saved per media id (PUT media/{id}/share). */
  shares: Map<string, FakeShare>;
  /** Bodies of PUT media/{id}/share, in order. */
  shareRequests: { id: string; body: unknown }[];
  promoVideos: PromoVideo[];
}

const freshState = (): FakeContentState => ({
  users: [],
  contents: [],
  pageSize: CONTENT_PAGE_SIZE,
  listings: [],
  shares: new Map(),
  shareRequests: [],
  promoVideos: [
    { id: 'promo-1', title: 'Parallax in a minute', video_url: 'http://localhost/api/promo-videos/promo-1/video.mp4', thumbnail_url: 'http://localhost/promo/promo-1.jpg' },
    { id: 'promo-2', title: 'A story from one idea', video_url: 'http://localhost/api/promo-videos/promo-2/video.mp4', thumbnail_url: 'http://localhost/promo/promo-2.jpg' },
  ],
});

export const fakeContent: FakeContentState = freshState();

export function resetFakeContent(): void {
  Object.assign(fakeContent, freshState());
}

let nextContent = 1;

/** A shared item as the listings answer it; newer ones get later `shared_at`s. */
export function buildContent(overrides: Partial<PublicContent> = {}): PublicContent {
  return publicContent(nextContent++, overrides);
}

export function addUser(user: PublicUser): PublicUser {
  fakeContent.users.push(user);
  return user;
}


const findUser = (id: string): PublicUser | undefined =>
  fakeContent.users.find((user) => user.id === id || user.preferred_username?.toLowerCase() === id.toLowerCase());

interface ListingBody {
  keyword?: string;
  next_start_keys?: string | null;
}

/** One page of `items` matching the body's keyword, from the offset its cursor names. */
function page(path: string, request: Request, body: ListingBody, items: PublicContent[]) {
  const keyword = (body.keyword ?? '').trim().toLowerCase();
  const nextStartKeys = body.next_start_keys ?? null;
  fakeContent.listings.push({ path, keyword: body.keyword ?? '', next_start_keys: nextStartKeys, signedIn: isSignedIn(request) });
  const matching = items.filter(
    (item) => item.visibility === 'public' && (keyword === '' || `${item.title} ${item.description}`.toLowerCase().includes(keyword)),
  );
  const start = nextStartKeys === null ? 0 : Number(nextStartKeys);
  const end = start + fakeContent.pageSize;
  return answer({ items: matching.slice(start, end), next_start_keys: end < matching.length ? String(end) : null });
}

export const contentHandlers = [
  http.get(`${API}/users/:id`, ({ params }) => {
    const user = findUser(String(params.id));
    return user ? answer(user) : detail(404, 'User not found.');
  }),
  http.post(`${API}/users/latest-contents`, async ({ request }) => {
    const body = (await request.json()) as ListingBody;
    return page('users/latest-contents', request, body, fakeContent.contents);
  }),
  http.post(`${API}/users/:id/contents`, async ({ request, params }) => {
    const user = findUser(String(params.id));
    if (!user) return detail(404, 'User not found.');
    const body = (await request.json()) as ListingBody;
    return page(`users/${String(params.id)}/contents`, request, body, fakeContent.contents.filter((item) => item.owner.id === user.id));
  }),
  http.get(`${API}/media/:id/view`, ({ params }) => {
    const media = fakeMedia.media.get(String(params.id));
    const share = fakeContent.shares.get(String(params.id));
    if (!media || !share || share.visibility === 'private') return detail(404, 'Media not found');
    const owner = fakeContent.users[0] ?? { id: 'sub-ada', preferred_username: 'ada' };
    return answer({ ...media, ...share, owner });
  }),
  http.put(`${API}/media/:id/share`, async ({ request, params }) => {
    const id = String(params.id);
    const body: unknown = await request.json();
    fakeContent.shareRequests.push({ id, body });
    if (!isSignedIn(request)) return detail(401, 'User needs to be authenticated to call this API.');
    const media = fakeMedia.media.get(id);
    if (!media) return detail(404, 'Media not found');
    const parsed = shareRequestSchema.safeParse(body);
    if (!parsed.success) return detail(400, 'The sharing form is not valid.');
    const finished = media.status.startsWith('success') && media.items.some((item) => item.url);
    if (parsed.data.visibility !== 'private' && !finished) return detail(400, 'Only a finished result can be shared.');
    const before = fakeContent.shares.get(id);
    const share: FakeShare = {
      ...parsed.data,
      shared_at: before?.shared_at ?? (parsed.data.visibility === 'private' ? null : media.updated_at),
    };
    fakeContent.shares.set(id, share);
    return answer({ ...media, ...share });
  }),
  http.get(`${API}/promo-videos`, () => answer(fakeContent.promoVideos)),
];
