import { ActionIcon, Group, NavLink } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { MENU, menuGroupOf, type MenuGroup } from '@/config/menu';

const withoutTrailingSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);
export const isCurrentPath = (pathname: string, path: string): boolean =>
  withoutTrailingSlash(pathname) === withoutTrailingSlash(path);

/** A chevron drawn inline: @tabler/icons would be one more package in the first page's bundle. */
function Chevron({ opened }: { opened: boolean }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 16 16"
      aria-hidden="true"
      style={{ transform: opened ? 'rotate(180deg)' : undefined, transition: 'transform 150ms ease' }}
    >
      <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function MenuLink({ label, path, pathname, onNavigate }: { label: string; path: string; pathname: string; onNavigate: () => void }) {
  const current = isCurrentPath(pathname, path);
  return (
    <NavLink
      component={Link}
      to={path}
      label={label}
      pl="xl"
      active={current}
      aria-current={current ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

interface GroupProps {
  group: MenuGroup;
  pathname: string;
  opened: boolean;
  onToggle: () => void;
  onNavigate: () => void;
}

/**
 * One group: its header links the group's page (SPEC §2.3), the chevron beside it folds or unfolds
 * its tools (SPEC's links, then Kinora's pages outside SPEC's list).
 */
function MenuGroupSection({ group, pathname, opened, onToggle, onNavigate }: GroupProps) {
  const current = isCurrentPath(pathname, group.path);
  const listId = `menu-group-${group.path.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '')}`;
  return (
    <div>
      <Group gap={0} wrap="nowrap">
        <NavLink
          component={Link}
          to={group.path}
          label={group.label}
          fw={700}
          active={current}
          aria-current={current ? 'page' : undefined}
          onClick={onNavigate}
          style={{ flex: 1, minWidth: 0 }}
        />
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          onClick={onToggle}
          aria-expanded={opened}
          aria-controls={listId}
          aria-label={`${group.label} tools`}
        >
          <Chevron opened={opened} />
        </ActionIcon>
      </Group>
      {/* Folded groups leave the DOM: their links are neither tabbable nor read out. */}
      <div id={listId} hidden={!opened}>
        {opened && (
          <>
            {group.items.map((item) => (
              <MenuLink key={item.path} label={item.label} path={item.path} pathname={pathname} onNavigate={onNavigate} />
            ))}
            {group.extras.map((extra) => (
              <MenuLink key={extra.path} label={extra.label} path={extra.path} pathname={pathname} onNavigate={onNavigate} />
            ))}
          </>
        )}
      </div>
    </div>
  );
}

/**
 * The menu of SPEC §2.3 with collapsible groups (issue 17): 31 links do not fit a 900 px tall
 * window, so only the group of the current page starts unfolded and every group header stays in
 * view as the cue for the rest. Moving to a page of another group unfolds that group too; groups
 * the person unfolded or folded keep their state.
 */
export function MenuGroups({ pathname, onNavigate }: { pathname: string; onNavigate: () => void }) {
  const currentGroup = menuGroupOf(pathname)?.path ?? null;
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set(currentGroup ? [currentGroup] : []));
  // Unfolds the group of a newly reached page while rendering (React's "adjust state on prop
  // change"), so the current link is never drawn hidden for one frame.
  const [seenGroup, setSeenGroup] = useState(currentGroup);
  if (seenGroup !== currentGroup) {
    setSeenGroup(currentGroup);
    if (currentGroup && !opened.has(currentGroup)) setOpened(new Set([...opened, currentGroup]));
  }
  const toggle = (path: string) =>
    setOpened((before) => {
      const next = new Set(before);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  return (
    <>
      {MENU.map((group) => (
        <MenuGroupSection
          key={group.path}
          group={group}
          pathname={pathname}
          opened={opened.has(group.path)}
          onToggle={() => toggle(group.path)}
          onNavigate={onNavigate}
        />
      ))}
    </>
  );
}
