import { describe, expect, it } from 'vitest';
import { CREATION_TYPES, ribbonLabelFor } from '@/config/creation-types';
import { MENU, menuGroupOf } from '@/config/menu';
import { ROUTES, profileHandleFromPath } from '@/config/routes';
import { TOOL_GROUPS, isInToolGroup } from '@/config/tool-groups';

describe('menu of SPEC §2.3', () => {
  it('has the four groups in order with their paths', () => {
    expect(MENU.map((group) => [group.label, group.path])).toEqual([
      ['AI Audio', '/ai-audio/'],
      ['AI Image', '/ai-image/'],
      ['AI Video', '/ai-video/'],
      ['AI Production', '/ai-production/'],
    ]);
  });

  it('has every link with its exact label and path', () => {
    expect(MENU.map((group) => group.items.map((item) => [item.label, item.path]))).toEqual([
      [
        ['Text to Speech', '/ai-audio/text-to-speech'],
        ['Sound Effects', '/ai-audio/text-to-audio'],
        ['Text to Music', '/ai-audio/text-to-music'],
      ],
      [
        ['Text to Image', '/ai-image/text-to-image'],
        ['Image to Image', '/ai-image/image-to-image'],
        ['Face Swap', '/ai-image/face-swap'],
        ['Try On Image', '/ai-image/try-on'],
        ['Image Elements', '/ai-image/image-elements'],
        ['Replace Background', '/ai-image/replace-background'],
        ['Edit Image', '/ai-image/edit-image'],
        ['Restyle Image', '/ai-image/restyle'],
      ],
      [
        ['AI Motion', '/ai-video/ai-motion'],
        ['Character Animate', '/ai-video/character-animate'],
        ['Try On Video', '/ai-video/try-on'],
        ['Edit Video', '/ai-video/edit-video'],
        ['Video Effects', '/ai-video/video-effects'],
        ['Lip Sync', '/ai-video/lip-sync'],
        ['Replace Background', '/ai-video/replace-background-video'],
        ['Restyle Video', '/ai-video/modify-video'],
      ],
      [
        ['AI Story', '/ai-production/ai-story'],
        ['LoRA Finetune', '/ai-production/finetune'],
      ],
    ]);
  });

  it('follows each group with the pages SPEC §2.3 does not list, so every tool page is in the menu (issue 17)', () => {
    expect(MENU.map((group) => group.extras.map((extra) => [extra.label, extra.path]))).toEqual([
      [['Upload Audio', '/ai-audio/upload-audio']],
      [
        ['Reimagine', '/ai-image/reimagine'],
        ['Upload Image', '/ai-image/upload-image'],
      ],
      [
        ['Parallax Motion', '/ai-video/parallax-motion'],
        ['Albums', '/ai-video/albums'],
        ['Upload Video', '/ai-video/upload-video'],
      ],
      [],
    ]);
    const paths = MENU.flatMap((group) => [group.path, ...group.items.map((item) => item.path), ...group.extras.map((extra) => extra.path)]);
    expect(new Set(paths).size).toBe(paths.length);
    // Every page of ROUTES' four groups is linked (the nested album and story pages open from their lists).
    const groupPages = [ROUTES.aiAudio, ROUTES.aiImage, ROUTES.aiVideo, ROUTES.aiProduction].flatMap((group) =>
      Object.values(group).filter((value): value is string => typeof value === 'string'),
    );
    expect(groupPages.filter((path) => !paths.includes(path))).toEqual([]);
  });

  it('finds the group of any page below it, and none for pages outside the groups', () => {
    expect(menuGroupOf('/ai-video/albums/a1')?.label).toBe('AI Video');
    expect(menuGroupOf('/ai-production/ai-story/s1')?.label).toBe('AI Production');
    expect(menuGroupOf('/ai-audio/')?.label).toBe('AI Audio');
    expect(menuGroupOf('/')).toBeUndefined();
    expect(menuGroupOf('/credits')).toBeUndefined();
  });

  it('gives every link a distinct tool id', () => {
    const tools = MENU.flatMap((group) => group.items.map((item) => item.tool));
    expect(new Set(tools).size).toBe(tools.length);
  });
});

describe('routes', () => {
  it('holds the shell routes of SPEC §2.1', () => {
    expect(ROUTES.home).toBe('/');
    expect(ROUTES.authentication).toBe('/authentication');
    expect(ROUTES.account).toBe('/account');
    expect(ROUTES.notFound).toBe('/404');
    expect(ROUTES.profile('ada')).toBe('/@ada');
    expect(ROUTES.localMailbox).toBe('/local/mailbox');
  });

  it('holds the use-case pages of SPEC §2.6', () => {
    expect(Object.values(ROUTES.useCases)).toEqual([
      '/use-cases/branding',
      '/use-cases/ecommerce',
      '/use-cases/photography',
      '/use-cases/restaurants',
    ]);
  });

  it('reads the handle from a profile path only', () => {
    expect(profileHandleFromPath('/@ada')).toBe('ada');
    expect(profileHandleFromPath('/@ada/')).toBe('ada');
    expect(profileHandleFromPath('/@j%C3%BCrgen')).toBe('jürgen');
    expect(profileHandleFromPath('/@')).toBeNull();
    expect(profileHandleFromPath('/@ada/videos')).toBeNull();
    expect(profileHandleFromPath('/account')).toBeNull();
  });

  it('returns null instead of throwing for a malformed percent-encoding', () => {
    expect(() => profileHandleFromPath('/@%E0%A4%A')).not.toThrow();
    expect(profileHandleFromPath('/@%E0%A4%A')).toBeNull();
    expect(profileHandleFromPath('/@ada%')).toBeNull();
  });
});

describe('creation types of SPEC §2.4', () => {
  it('has each type with its route and ribbon label', () => {
    expect(CREATION_TYPES.map((item) => [item.type, item.route, item.ribbonLabel])).toEqual([
      ['ai-motion', '/ai-video/ai-motion', 'AI-motion'],
      ['parallax-motion', '/ai-video/parallax-motion', 'Parallax'],
      ['try-on', '/ai-video/try-on', 'Try-on'],
      ['character-animate', '/ai-video/character-animate', 'Character'],
      ['extend-video', null, null],
    ]);
    expect(ribbonLabelFor('character-animate')).toBe('Character');
    expect(ribbonLabelFor('extend-video')).toBeNull();
  });
});

describe('tool groups of SPEC §2.5', () => {
  it('lists the tools of each group', () => {
    expect(TOOL_GROUPS.videoEditing).toEqual(['edit-video', 'video-effects', 'lip-sync', 'replace-background-video', 'modify-video']);
    expect(TOOL_GROUPS.audio).toEqual(['text-to-speech', 'text-to-audio', 'text-to-music', 'upload-audio']);
    expect(TOOL_GROUPS.upload).toEqual(['upload', 'upload-image', 'upload-video', 'upload-audio']);
    expect(TOOL_GROUPS.finetune).toEqual(['finetune']);
  });

  it('tells whether a tool belongs to a group', () => {
    expect(isInToolGroup('videoEditing', 'lip-sync')).toBe(true);
    expect(isInToolGroup('audio', 'lip-sync')).toBe(false);
    expect(isInToolGroup('upload', 'upload-audio')).toBe(true);
  });
});
