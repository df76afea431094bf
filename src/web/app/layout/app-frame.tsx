import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import type { Me } from '../../../shared/api/auth';
import { Button } from '../../components/ui/button';
import { GlobeIcon, LayersIcon, SignOutIcon, UsersIcon } from '../../components/ui/icons';
import { ThemeSwitch } from '../../components/ui/theme-switch';
import { paths } from '../paths';
import './app-frame.css';

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

  const handleSkip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    mainRef.current?.focus();
  };

  return (
    <div className="frame">
      <a href="#main" className="skip-link" onClick={handleSkip}>
        Skip to main content
      </a>
      <header className="frame__header">
        <Link to={paths.sites} className="frame__brand">
          Folio
        </Link>
        {headerSearch && <div className="frame__header-search">{headerSearch}</div>}
        <div className="frame__header-end">
          <ThemeSwitch />
          <p className="frame__user">
            <span className="visually-hidden">Signed in as </span>
            <span className="frame__username">{user.username}</span>
            <span className="badge">{user.role}</span>
          </p>
          <Button variant="secondary" size="sm" onPress={onSignOut} isPending={isSigningOut}>
            <SignOutIcon /> Sign out
          </Button>
        </div>
      </header>
      <nav className="frame__nav" aria-label="Main">
        <ul>
          <li>
            <NavLink to={paths.sites} className="nav-link">
              <GlobeIcon /> Sites
            </NavLink>
          </li>
          {user.role === 'Admin' && (
            <li>
              <NavLink to={paths.users} className="nav-link">
                <UsersIcon /> Users
              </NavLink>
            </li>
          )}
          {user.role === 'Admin' && (
            <li>
              <NavLink to={paths.kit} className="nav-link">
                <LayersIcon /> Editing kit
              </NavLink>
            </li>
          )}
        </ul>
        {navigationPanel}
      </nav>
      <main id="main" ref={mainRef} className="frame__main" tabIndex={-1}>
        <div className="frame__content">{children}</div>
      </main>
    </div>
  );
}
