import type { VideoCreationType } from '@/config/video-creation';
import { ToolPlaceholderScreen } from '@/screens/tools/tool-placeholder-screen';

export interface VideoCreationScreenProps {
  type: VideoCreationType;
  title: string;
  groupLabel: string;
  groupPath: string;
}

/** AI Motion, Parallax Motion, Try On Video, Character Animate (issue 5): to be written. */
export function VideoCreationScreen({ title, groupLabel, groupPath }: VideoCreationScreenProps) {
  return <ToolPlaceholderScreen title={title} groupLabel={groupLabel} groupPath={groupPath} />;
}
