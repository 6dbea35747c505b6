import { ActionIcon, Loader, Menu } from '@mantine/core';
import type { PromptHelperMode } from '@/config/enums';
import { TOOL_TEXTS } from '@/config/job-texts';

interface PromptHelperMenuProps {
  /** A request is running: the button shows a loader and takes no new one (it keeps its focus). */
  busy: boolean;
  /** "Guess from picture" is offered only when a picture has been given. */
  canGuessFromPicture: boolean;
  onPick: (option: PromptHelperMode) => void;
}

/** The four prompt helpers of SPEC §9 ("Prompt helper modes") beside a prompt field. */
export function PromptHelperMenu({ busy, canGuessFromPicture, onPick }: PromptHelperMenuProps) {
  // The same button stays while busy, showing a loader inside and marked disabled with
  // aria-disabled/data-disabled rather than the `disabled` attribute (or Mantine's `loading`, which
  // sets it): a focused element that becomes disabled drops the keyboard focus to the page.
  return (
    <Menu position="bottom-end" withinPortal disabled={busy}>
      <Menu.Target>
        <ActionIcon
          variant="light"
          aria-label={busy ? TOOL_TEXTS.promptHelper.working : TOOL_TEXTS.promptHelper.menu}
          data-disabled={busy || undefined}
          aria-disabled={busy || undefined}
          aria-busy={busy || undefined}
        >
          {busy ? <Loader size="xs" /> : '✦'}
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onPick('SuggestPrompt')}>{TOOL_TEXTS.promptHelper.suggest}</Menu.Item>
        <Menu.Item onClick={() => onPick('RefinePrompt')}>{TOOL_TEXTS.promptHelper.refine}</Menu.Item>
        {canGuessFromPicture && (
          <Menu.Item onClick={() => onPick('Image2Prompt')}>{TOOL_TEXTS.promptHelper.guess}</Menu.Item>
        )}
        <Menu.Item onClick={() => onPick('InspireMe')}>{TOOL_TEXTS.promptHelper.inspire}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
