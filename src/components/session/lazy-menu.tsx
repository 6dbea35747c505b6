import type { Menu as MantineMenu } from '@mantine/core';
import {
  cloneElement,
  createContext,
  isValidElement,
  useContext,
  useEffect,
  useMemo,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

type MenuComponent = typeof MantineMenu;

let loadedMenu: MenuComponent | null = null;
let loadingMenu: Promise<MenuComponent> | null = null;

/** Downloads Mantine's Menu once; later calls share the download. A failed download is tried again next time. */
export function loadMenu(): Promise<MenuComponent> {
  loadingMenu ??= import('@/components/session/account-menu-parts').then(
    (module) => (loadedMenu = module.Menu),
    (error: unknown) => {
      loadingMenu = null;
      throw error;
    },
  );
  return loadingMenu;
}

interface Facade {
  real: MenuComponent | null;
  /** The target was clicked before the real menu arrived: open it as soon as it does. */
  requestOpen: () => void;
}

const FacadeContext = createContext<Facade>({ real: null, requestOpen: () => undefined });

type RootProps = Parameters<MenuComponent>[0];

function LazyMenuRoot({ children, defaultOpened, ...props }: RootProps) {
  const [real, setReal] = useState<MenuComponent | null>(() => loadedMenu);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  useEffect(() => {
    if (real) return undefined;
    let live = true;
    // The menu starts downloading as soon as its target shows, so it is there before anyone clicks.
    loadMenu().then(
      (menu) => live && setReal(() => menu),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [real]);
  const facade = useMemo<Facade>(() => ({ real, requestOpen: () => setOpenOnLoad(true) }), [real]);
  const Real = real;
  return (
    <FacadeContext.Provider value={facade}>
      {Real ? (
        <Real {...props} defaultOpened={defaultOpened === true || openOnLoad}>
          {children}
        </Real>
      ) : (
        children
      )}
    </FacadeContext.Provider>
  );
}

interface ClickableProps {
  onClick?: (event: MouseEvent) => void;
}

function LazyMenuTarget(props: Parameters<MenuComponent['Target']>[0]) {
  const { real, requestOpen } = useContext(FacadeContext);
  if (real) return <real.Target {...props} />;
  // Until the real menu arrives the target shows as it will (a menu button, closed); a click opens the menu on arrival.
  const child = props.children as ReactNode;
  if (!isValidElement<ClickableProps>(child)) return child;
  return cloneElement(child as ReactElement<ClickableProps & Record<string, unknown>>, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onClick: (event: MouseEvent) => {
      child.props.onClick?.(event);
      requestOpen();
      void loadMenu().catch(() => undefined);
    },
  });
}

/** The parts that only show inside the open dropdown render nothing until the real menu arrives. */
function part<K extends 'Dropdown' | 'Item' | 'Label' | 'Divider'>(name: K) {
  function LazyMenuPart(props: Record<string, unknown>) {
    const { real } = useContext(FacadeContext);
    if (!real) return null;
    const Part = real[name] as unknown as (props: Record<string, unknown>) => ReactNode;
    return <Part {...props} />;
  }
  LazyMenuPart.displayName = `LazyMenu.${name}`;
  return LazyMenuPart;
}

/**
 * Mantine's Menu, with the same API, loaded after the first render (the account menu is the only
 * Menu the first page shows). Supports Target, Dropdown, Item, Label and Divider.
 */
export const Menu = Object.assign(LazyMenuRoot, {
  Target: LazyMenuTarget,
  Dropdown: part('Dropdown'),
  Item: part('Item'),
  Label: part('Label'),
  Divider: part('Divider'),
}) as unknown as MenuComponent;
