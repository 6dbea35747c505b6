import { ROUTES } from '@/config/routes';
import { ToolPlaceholderScreen } from '@/screens/tools/tool-placeholder-screen';

/** The person's batch albums (issue 5): to be written. */
export function AlbumsScreen() {
  return <ToolPlaceholderScreen title="Albums" groupLabel="AI Video" groupPath={ROUTES.aiVideo.root} />;
}
