import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SubscriberSubscription } from '../../contract/subscriber.js';
import type { Language } from '../../i18n/languages.js';
import { PageShell } from '../checkout/page-shell.js';
import { useT } from '../i18n/use-t.js';
import { LiveRegionProvider } from '../ui/live-region.js';
import { subscriberApi, type ApiWords, type SubscriberAction } from './subscriber-api.js';
import { SubscriptionView } from './subscription-view.js';

type View =
  | { status: 'loading' }
  | { status: 'link'; message: string; code?: string | undefined }
  | { status: 'failed'; message: string }
  | { status: 'ready'; subscription: SubscriberSubscription };

/**
 * The subscriber's self-service page (docs/subscriptions.md, "Self-service"): a refused link is said plainly, with
 * what to do (ask the store for a new link); no email is promised, since this page sends none. It speaks the
 * language asked for with ?lang=, else the one its subscription came with (`language`), docs/languages.md.
 */
export function ManageApp({
  token,
  requested = null,
  activate,
}: {
  token: string | null;
  /** ?lang= on the page's address: it wins over the subscription's language */
  requested?: Language | null;
  /** turns the page to a language (manage-languages.ts); none in tests that render one language */
  activate?: (language: Language) => Promise<void>;
}) {
  const { t, language } = useT();
  const words = useMemo<ApiWords>(
    () => ({
      language,
      unreachable: t('manage.error.unreachable'),
      unexpected: t('manage.error.unexpected'),
    }),
    [t, language],
  );
  const [view, setView] = useState<View>(
    token ? { status: 'loading' } : { status: 'link', message: t('manage.noLink') },
  );

  useEffect(() => {
    document.title = t('manage.title');
  }, [t]);

  useEffect(() => {
    if (!token) return;
    let live = true;
    void subscriberApi.read(words, token).then(async (answer) => {
      if (!live) return;
      if (answer.ok && !requested && activate && answer.subscription.language !== language)
        await activate(answer.subscription.language);
      if (!live) return;
      if (answer.ok) setView({ status: 'ready', subscription: answer.subscription });
      else
        setView(
          answer.kind === 'link'
            ? { status: 'link', message: answer.message, code: 'code' in answer ? answer.code : undefined }
            : { status: 'failed', message: answer.message },
        );
    });
    return () => {
      live = false;
    };
    // Read once per link: a language the answer turns the page to does not read it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  const act = useCallback(
    async (action: SubscriberAction, body?: Record<string, unknown>) => {
      const answer = await subscriberApi.act(words, token ?? '', action, body);
      if (answer.ok) setView({ status: 'ready', subscription: answer.subscription });
      else if (answer.kind === 'link')
        setView({
          status: 'link',
          message: answer.message,
          code: 'code' in answer ? answer.code : undefined,
        });
      return answer;
    },
    [token, words],
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
            {t('manage.loading')}
          </p>
        ) : view.status === 'ready' ? (
          <SubscriptionView subscription={view.subscription} act={act} />
        ) : (
          <div className="page-error" role="alert">
            <h2>
              {view.status === 'link'
                ? view.code === 'subscriber_link_expired'
                  ? t('manage.error.expiredTitle')
                  : view.code === 'subscription_not_found'
                    ? t('manage.error.notFoundTitle')
                    : t('manage.error.linkTitle')
                : t('manage.error.failedTitle')}
            </h2>
            <p>{view.message}</p>
          </div>
        )}
      </PageShell>
    </LiveRegionProvider>
  );
}
