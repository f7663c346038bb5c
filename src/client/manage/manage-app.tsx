import { useCallback, useEffect, useState } from 'react';
import type { SubscriberSubscription } from '../../contract/subscriber.js';
import { PageShell } from '../checkout/page-shell.js';
import { LiveRegionProvider } from '../ui/live-region.js';
import { subscriberApi, type SubscriberAction } from './subscriber-api.js';
import { SubscriptionView } from './subscription-view.js';

type View =
  | { status: 'loading' }
  | { status: 'link'; message: string }
  | { status: 'failed'; message: string }
  | { status: 'ready'; subscription: SubscriberSubscription };

const NO_LINK = 'Open the link from your subscription email to manage your subscription.';

/**
 * The subscriber's self-service page (docs/subscriptions.md, "Self-service"): a refused link is said plainly, with
 * what to do (ask the store for a new link); no email is promised, since this page sends none.
 */
export function ManageApp({ token }: { token: string | null }) {
  const [view, setView] = useState<View>(
    token ? { status: 'loading' } : { status: 'link', message: NO_LINK },
  );

  useEffect(() => {
    if (!token) return;
    let live = true;
    void subscriberApi.read(token).then((answer) => {
      if (!live) return;
      if (answer.ok) setView({ status: 'ready', subscription: answer.subscription });
      else setView({ status: answer.kind === 'link' ? 'link' : 'failed', message: answer.message });
    });
    return () => {
      live = false;
    };
  }, [token]);

  const act = useCallback(
    async (action: SubscriberAction, body?: Record<string, unknown>) => {
      const answer = await subscriberApi.act(token ?? '', action, body);
      if (answer.ok) setView({ status: 'ready', subscription: answer.subscription });
      else if (answer.kind === 'link') setView({ status: 'link', message: answer.message });
      return answer;
    },
    [token],
  );

  const shell =
    view.status === 'ready'
      ? {
          organization_name: view.subscription.store.name,
          logo_url: view.subscription.store.logo_url,
          legal: {},
          test_mode: view.subscription.is_test,
        }
      : null;

  return (
    <LiveRegionProvider>
      <PageShell config={shell}>
        {view.status === 'loading' ? (
          <p className="loading" role="status">
            Loading your subscription…
          </p>
        ) : view.status === 'ready' ? (
          <SubscriptionView subscription={view.subscription} act={act} />
        ) : (
          <div className="page-error" role="alert">
            <h2>{view.status === 'link' ? linkTitle(view.message) : 'Something went wrong'}</h2>
            <p>{view.message}</p>
          </div>
        )}
      </PageShell>
    </LiveRegionProvider>
  );
}

function linkTitle(message: string): string {
  if (/expired/i.test(message)) return 'This link has expired';
  if (/could not be found/i.test(message)) return 'Subscription not found';
  return 'This link does not work';
}
