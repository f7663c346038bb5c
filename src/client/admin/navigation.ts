// The dashboard's screens by address (docs/dashboard.md): one page, its screens moved between without a reload.
import { useEffect, useState } from 'react';

export type Screen = 'home' | 'link' | 'sign-in';

export function screenOf(pathname: string): Screen {
  if (pathname === '/admin/link') return 'link';
  if (pathname === '/admin/sign-in') return 'sign-in';
  return 'home';
}

const PATHS: Record<Screen, string> = { home: '/admin', link: '/admin/link', 'sign-in': '/admin/sign-in' };

export function navigate(screen: Screen): void {
  window.history.pushState(null, '', PATHS[screen]);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useScreen(): Screen {
  const [screen, setScreen] = useState(() => screenOf(window.location.pathname));
  useEffect(() => {
    const follow = () => setScreen(screenOf(window.location.pathname));
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  return screen;
}
