import { ROUTES } from '@/config/routes';
import { ToolPlaceholderScreen } from '@/screens/tools/tool-placeholder-screen';

/** One batch album (issue 5): to be written. */
export function AlbumScreen({ id }: { id: string }) {
  return <ToolPlaceholderScreen title={`Album ${id}`} groupLabel="Albums" groupPath={ROUTES.aiVideo.albums} />;
}
