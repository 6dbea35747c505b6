/** Tool groups of SPEC §2.5: which tools share a page layout or a result list. */
export const TOOL_GROUPS = {
  videoEditing: ['edit-video', 'video-effects', 'lip-sync', 'replace-background-video', 'modify-video'],
  audio: ['text-to-speech', 'text-to-audio', 'text-to-music', 'upload-audio'],
  upload: ['upload', 'upload-image', 'upload-video', 'upload-audio'],
  finetune: ['finetune'],
} as const;

export type ToolGroup = keyof typeof TOOL_GROUPS;

export function isInToolGroup(group: ToolGroup, tool: string): boolean {
  return (TOOL_GROUPS[group] as readonly string[]).includes(tool);
}
