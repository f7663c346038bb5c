// The dashboard's page (docs/dashboard.md): sign-in, a one-time link's password, and the signed-in screens.
import { QueryClientProvider, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '../ui/button.js';
import { LiveRegionProvider } from '../ui/live-region.js';
import { request } from './admin-api.js';
import { createAdminQueryClient, readSession, SESSION_KEY } from './admin-queries.js';
import { HomeScreen } from './home-screen.js';
import { navigate, useScreen } from './navigation.js';
import { LinkScreen, SignInScreen } from './staff-forms.js';

function SignedIn() {
  const client = useQueryClient();
  const session = useQuery({ queryKey: SESSION_KEY, queryFn: readSession });
  const signOut = useMutation({
    mutationFn: () => request(null, 'DELETE', '/admin/api/session'),
    onSettled: () => {
      client.clear();
      navigate('sign-in');
    },
  });
  const signedOut = session.isSuccess && session.data === null;
  useEffect(() => {
    if (signedOut) navigate('sign-in');
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
  return (
    <div className="admin-shell">
      <header className="admin-header">
        <p className="admin-header__store">{organization.name}</p>
        <nav aria-label="Dashboard">
          <a href="/admin" aria-current="page">
            Home
          </a>
        </nav>
        <p className="admin-header__member">
          {member.name || member.email} ({member.role})
        </p>
        <Button variant="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </Button>
      </header>
      <main className="admin-main" id="main">
        <HomeScreen />
      </main>
    </div>
  );
}

function Screens() {
  const screen = useScreen();
  if (screen === 'link' || screen === 'sign-in') {
    return (
      <main className="admin-main admin-main--centered" id="main">
        {screen === 'link' ? <LinkScreen /> : <SignInScreen />}
      </main>
    );
  }
  return <SignedIn />;
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
