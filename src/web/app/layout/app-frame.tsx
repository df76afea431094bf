import { useCallback, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { Me } from '../../../shared/api/auth';
import { Button } from '../../components/ui/button';
import {
  GlobeIcon,
  ImagesIcon,
  LayersIcon,
  ListTreeIcon,
  SignOutIcon,
  TrashIcon,
  UsersIcon,
} from '../../components/ui/icons';
import { ThemeSwitch } from '../../components/ui/theme-switch';
import { SkipLinksContext, type RegisterSkipLink, type SkipLink } from '../../lib/skip-links';
import { paths } from '../paths';
import './app-frame.css';

/** An area of the app in the main menu, and the URLs that belong to it. */
interface Area {
  id: string;
  label: string;
  href: string;
  icon: (props: { className?: string }) => ReactNode;
  /** Its screens: a page of a site is in the sites' area, an asset folder in the asset library's. */
  prefixes: readonly string[];
  adminOnly?: boolean;
}

const AREAS: readonly Area[] = [
  { id: 'sites', label: 'Sites', href: paths.sites, icon: GlobeIcon, prefixes: [paths.sites, paths.pages] },
  { id: 'assets', label: 'Asset library', href: paths.assets, icon: ImagesIcon, prefixes: [paths.assets] },
  {
    id: 'templates',
    label: 'Templates',
    href: paths.templates,
    icon: ListTreeIcon,
    prefixes: [paths.templates],
    adminOnly: true,
  },
  { id: 'trash', label: 'Trash', href: paths.trash, icon: TrashIcon, prefixes: [paths.trash] },
  { id: 'users', label: 'Users', href: paths.users, icon: UsersIcon, prefixes: [paths.users], adminOnly: true },
  { id: 'kit', label: 'Editing kit', href: paths.kit, icon: LayersIcon, prefixes: [paths.kit], adminOnly: true },
];

/** `page` on the area's own screen, `location` anywhere inside it (a site's page, an asset folder). */
function ariaCurrentOf(area: Area, pathname: string): 'page' | 'location' | undefined {
  if (pathname === area.href) return 'page';
  return area.prefixes.some((p) => pathname === p || pathname.startsWith(`${p}/`)) ? 'location' : undefined;
}

/**
 * The frame around every signed-in screen: header (product, theme, the signed-in user, sign out), navigation on
 * the left, the screen in the main area. After each navigation focus moves to the new screen's heading.
 */
export function AppFrame({
  user,
  onSignOut,
  isSigningOut,
  navigationPanel,
  headerSearch,
  children,
}: {
  user: Pick<Me, 'username' | 'role'>;
  onSignOut: () => void;
  isSigningOut: boolean;
  /** Shown in the navigation area below the links (the explorer tree). */
  navigationPanel?: ReactNode;
  /** Shown in the middle of the header (the explorer's find field). */
  headerSearch?: ReactNode;
  children: ReactNode;
}) {
  const mainRef = useRef<HTMLElement>(null);
  const location = useLocation();
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // Navigating from a widget that keeps focus (the explorer tree, where Enter opens an item) leaves it there.
    if (document.activeElement?.closest('[data-keeps-focus-on-navigation]')) return;
    const heading = mainRef.current?.querySelector<HTMLElement>('[data-screen-heading]');
    (heading ?? mainRef.current)?.focus();
  }, [location.pathname]);

  // The frame's skip link, then the screen's own (the page editor's "Skip to the content editor").
  const [skipLinks, setSkipLinks] = useState<readonly SkipLink[]>([]);
  const links: readonly SkipLink[] = [
    { id: 'main', label: 'Skip to main content', go: () => mainRef.current?.focus() },
    ...skipLinks,
  ];
  const skipTo = (link: SkipLink) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    link.go();
  };
  const registerSkipLink = useCallback<RegisterSkipLink>(
    (link, on) => setSkipLinks((links) => [...links.filter((l) => l.id !== link.id), ...(on ? [link] : [])]),
    [],
  );

  return (
    <div className="frame">
      {links.map((link) => (
        <a key={link.id} href={`#${link.id}`} className="skip-link" onClick={skipTo(link)}>
          {link.label}
        </a>
      ))}
      <header className="frame__header">
        <Link to={paths.sites} className="frame__brand">
          Folio
        </Link>
        {headerSearch && <div className="frame__header-search">{headerSearch}</div>}
        <div className="frame__header-end">
          <ThemeSwitch />
          <p className="frame__user">
            <span className="visually-hidden">Signed in as </span>
            <Link
              to={paths.account}
              className="frame__username"
              aria-current={location.pathname === paths.account ? 'page' : undefined}
              aria-label={`${user.username}: your account and password`}
            >
              {user.username}
            </Link>
            <span className="badge">{user.role}</span>
          </p>
          <Button variant="secondary" size="sm" onPress={onSignOut} isPending={isSigningOut}>
            <SignOutIcon /> Sign out
          </Button>
        </div>
      </header>
      <nav className="frame__nav" aria-label="Main">
        <ul>
          {AREAS.filter((area) => !area.adminOnly || user.role === 'Admin').map((area) => (
            <li key={area.id}>
              <Link to={area.href} className="nav-link" aria-current={ariaCurrentOf(area, location.pathname)}>
                <area.icon /> {area.label}
              </Link>
            </li>
          ))}
        </ul>
        {navigationPanel}
      </nav>
      <main id="main" ref={mainRef} className="frame__main" tabIndex={-1}>
        <SkipLinksContext.Provider value={registerSkipLink}>
          <div className="frame__content">{children}</div>
        </SkipLinksContext.Provider>
      </main>
    </div>
  );
}
