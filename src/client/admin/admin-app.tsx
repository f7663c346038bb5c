// The dashboard's page (docs/dashboard.md): sign-in, a one-time link's password, and the signed-in screens. Each
// area's screens are a chunk of their own, loaded when first opened.
import { QueryClientProvider, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import type { StaffSession } from '../../contract/staff.js';
import { Button } from '../ui/button.js';
import { LiveRegionProvider } from '../ui/live-region.js';
import { request } from './admin-api.js';
import { createAdminQueryClient, readSession, SESSION_KEY } from './admin-queries.js';
import type { AreaProps } from './area.js';
import { HomeScreen } from './home-screen.js';
import { AdminLink } from './kit/admin-link.js';
import { NoSuchScreen } from './kit/no-such-screen.js';
import { QueryState } from './kit/query-state.js';
import { areasFor, navigate, routeOf, useLocation, type Area, type Route } from './navigation.js';
import { ScreenHeading } from './screen-heading.js';
import { LinkScreen, SignInScreen } from './staff-forms.js';

const AREA_SCREENS: Record<Exclude<Area, 'home'>, ComponentType<AreaProps>> = {
  orders: lazy(() => import('./orders/orders-area.js')),
  subscriptions: lazy(() => import('./subscriptions/subscriptions-area.js')),
  catalogue: lazy(() => import('./catalogue/catalogue-area.js')),
  shipping: lazy(() => import('./shipping/shipping-area.js')),
  settings: lazy(() => import('./settings/settings-area.js')),
  developers: lazy(() => import('./developers/developers-area.js')),
  staff: lazy(() => import('./staff/staff-area.js')),
};

function NotFound() {
  return (
    <NoSuchScreen
      heading="No such screen"
      says="This address is not a screen of the dashboard."
      back={{ to: '/admin', label: 'Go to the home screen' }}
    />
  );
}

function AreaScreen({ route, session }: { route: Route; session: StaffSession }) {
  if (route.area === 'not-found' || route.area === 'link' || route.area === 'sign-in') return <NotFound />;
  if (route.area === 'home') return <HomeScreen />;
  const allowed = areasFor(session.member.role).some((entry) => entry.area === route.area);
  if (!allowed) {
    return (
      <>
        <ScreenHeading>Only the owner can open this</ScreenHeading>
        <p>Ask the store's owner to make this change.</p>
      </>
    );
  }
  const Screen = AREA_SCREENS[route.area];
  return (
    <Suspense fallback={<QueryState error={null} loading="Opening…" />}>
      <Screen rest={route.rest} session={session} />
    </Suspense>
  );
}

function SignedIn({ route }: { route: Route }) {
  const client = useQueryClient();
  const session = useQuery({ queryKey: SESSION_KEY, queryFn: readSession });
  const signOut = useMutation({
    mutationFn: () => request(null, 'DELETE', '/admin/api/session'),
    onSettled: () => {
      client.clear();
      navigate('/admin/sign-in');
    },
  });
  const signedOut = session.isSuccess && session.data === null;
  useEffect(() => {
    if (signedOut) navigate('/admin/sign-in', { replace: true });
  }, [signedOut]);
  if (session.error)
    return <p role="alert">The dashboard could not be reached. Reload the page to try again.</p>;
  if (!session.data)
    return (
      <p className="loading" role="status">
        Loading the dashboard…
      </p>
    );
  const { member, organization } = session.data;
  const currentArea = 'rest' in route ? route.area : null;
  return (
    <div className="admin-shell">
      <header className="admin-header">
        <p className="admin-header__store">{organization.name}</p>
        <p className="admin-header__member">
          {member.name || member.email} ({member.role})
        </p>
        <Button variant="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </Button>
        <nav aria-label="Dashboard" className="admin-nav">
          <ul>
            {areasFor(member.role).map((entry) => (
              <li key={entry.area}>
                <AdminLink to={entry.path} current={entry.area === currentArea}>
                  {entry.label}
                </AdminLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main className="admin-main" id="main">
        <AreaScreen route={route} session={session.data} />
      </main>
    </div>
  );
}

function Screens() {
  const location = useLocation();
  const route = routeOf(location.pathname);
  if (route.area === 'link' || route.area === 'sign-in') {
    return (
      <main className="admin-main admin-main--centered" id="main">
        {route.area === 'link' ? <LinkScreen /> : <SignInScreen />}
      </main>
    );
  }
  return <SignedIn route={route} />;
}

export function AdminApp() {
  const [client] = useState(createAdminQueryClient);
  return (
    <QueryClientProvider client={client}>
      <LiveRegionProvider>
        <Screens />
      </LiveRegionProvider>
    </QueryClientProvider>
  );
}
