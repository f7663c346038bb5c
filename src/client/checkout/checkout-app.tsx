import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useReducer, useState } from 'react';
import type { PageConfig } from '../../contract/page-config.js';
import type { Cart } from '../../contract/cart.js';
import { cartKey, cartQuery, createQueryClient } from '../api/cart-queries.js';
import { createCheckoutApi, type CheckoutApi } from '../api/checkout-api.js';
import { createCsrfScheduler, type Timers } from '../api/csrf-scheduler.js';
import { createHttpClient, failureOf } from '../api/http-client.js';
import { handshakeFor, type EarlyHandshake } from '../boot/early-handshake.js';
import { NO_ACCESS_TOKEN_MESSAGE, shopperMessageOf } from '../../domain/api-error-catalogue.js';
import { linkErrorTitleKey } from '../../domain/link-errors.js';
import type { Message } from '../../i18n/message-keys.js';
import { initialRouterStatus, routerStatusReducer } from '../../domain/router-status.js';
import { rememberCartToken, replaceAddressToken } from '../boot/route-token.js';
import { ErrorBoundary } from '../errors/error-boundary.js';
import { describePageFailure, type PageFailureFacts } from '../errors/page-failure.js';
import { useT } from '../i18n/use-t.js';
import { Button } from '../ui/button.js';
import { LiveRegionProvider } from '../ui/live-region.js';
import { BumpOffersSlot } from './bumps/bump-offers-slot.js';
import { useKeepOpeningLanguage } from './language/use-keep-opening-language.js';
import { bumpOffersChunk, checkoutViewChunk, preloadBumpOffers, preloadPageChunks } from './page-chunks.js';
import { PageShell } from './page-shell.js';
import type { LoadCardProcessor } from './payment/processors/load-card-processor.js';

const ConfirmationView = lazy(() => import('./confirmation/confirmation-view.js'));
const CheckoutView = checkoutViewChunk.Component;

export interface CheckoutAppProps {
  config: PageConfig;
  /** the token from the address bar */
  routeToken: string;
  fetch?: typeof fetch;
  timers?: Timers;
  now?: () => Date;
  /** the card processor's adapter for the config (tests pass a fake); by default the configured one, loaded lazily */
  loadCardProcessor?: LoadCardProcessor;
  /** the handshake main.tsx started from the raw config, used when the checked config names the same */
  handshake?: EarlyHandshake | null;
}

interface Services {
  api: CheckoutApi;
  queryClient: QueryClient;
  scheduler: ReturnType<typeof createCsrfScheduler>;
}

function createServices(props: CheckoutAppProps): Services {
  const scheduler = { current: null as ReturnType<typeof createCsrfScheduler> | null };
  // Started by main.tsx before the config was checked, when it names the same store: the calls are on their way.
  const early = props.fetch ? null : handshakeFor(props.handshake, props.config);
  const http =
    early?.http ??
    createHttpClient({
      apiBase: props.config.api_base,
      organization: props.config.organization,
      testMode: props.config.test_mode,
      ...(props.fetch ? { fetch: props.fetch } : {}),
      onCsrfToken: (expiry) => scheduler.current?.schedule(expiry),
    });
  scheduler.current = createCsrfScheduler(() => http.regenerateCsrf(), props.timers);
  early?.onCsrfToken((expiry) => scheduler.current?.schedule(expiry));
  // The handshake starts before the first render (or joins the early one): three calls stand between the shopper and
  // the cart. The page itself loads meanwhile.
  void http.start();
  // Started already by main.tsx beside the early handshake; here for a page rendered without it.
  preloadPageChunks();
  return { api: createCheckoutApi(http), queryClient: createQueryClient(), scheduler: scheduler.current };
}

/** The page: CSRF token, then authorization as the configured organization, then the cart. */
export function CheckoutApp(props: CheckoutAppProps) {
  const [services] = useState(() => createServices(props));
  const { config } = props;
  const { t } = useT();

  const onError = useCallback(
    (error: unknown, componentStack: string | null) => {
      void import('../errors/report-client-error.js').then(({ buildErrorReport, reportClientError }) =>
        reportClientError(
          {
            dsn: config.error_reporting_dsn,
            sendToServer: (report) => services.api.reportClientError(report),
            ...(props.fetch ? { fetch: props.fetch } : {}),
          },
          buildErrorReport(error, { componentStack, url: window.location.href, cartToken: props.routeToken }),
        ),
      );
    },
    [config.error_reporting_dsn, services, props.fetch, props.routeToken],
  );

  useEffect(() => {
    const { scheduler, api } = services;
    // Re-plan after a remount; the first plan comes with the first token.
    const expiry = api.http.auth.csrfTokenExpiry;
    if (expiry !== null) scheduler.schedule(expiry);
    return () => scheduler.stop();
  }, [services]);

  return (
    <QueryClientProvider client={services.queryClient}>
      <LiveRegionProvider>
        <ErrorBoundary
          onError={onError}
          fallback={(retry) => {
            const failure = describePageFailure(
              {
                ...lastKnownOrder(services.queryClient, props.routeToken),
                orderRequested: services.api.orderRequested,
              },
              t,
            );
            return (
              <PageMessage
                config={config}
                title={failure.title}
                message={failure.message}
                {...(failure.action === 'reload'
                  ? { onRetry: () => window.location.reload(), retryLabel: t('checkout.reload_page') }
                  : { onRetry: retry })}
              />
            );
          }}
        >
          <BumpOffersSlot value={<bumpOffersChunk.Component />}>
            <CheckoutSession {...props} api={services.api} queryClient={services.queryClient} />
          </BumpOffersSlot>
        </ErrorBoundary>
      </LiveRegionProvider>
    </QueryClientProvider>
  );
}

/** The first view while the order loads; the server sends the same markup in the HTML (page-shell.ts). */
export function Loading({ config }: { config: PageConfig }) {
  const { t } = useT();
  return (
    <PageShell config={config}>
      <div className="checkout checkout--loading" aria-busy="true">
        <p className="loading" role="status">
          {t('common.loading_order')}
        </p>
      </div>
    </PageShell>
  );
}

export function PageMessage({
  config,
  title,
  message,
  onRetry,
  retryLabel,
}: {
  config: Pick<PageConfig, 'organization_name' | 'logo_url' | 'legal' | 'test_mode'> | null;
  title: string;
  message: string;
  onRetry?: () => void;
  retryLabel?: string;
}) {
  const { t } = useT();
  return (
    <PageShell config={config}>
      <div className="page-error" role="alert">
        <h2>{title}</h2>
        <p>{message}</p>
        {onRetry ? <Button onClick={onRetry}>{retryLabel ?? t('checkout.try_again')}</Button> : null}
      </div>
    </PageShell>
  );
}

/**
 * The page when its link opens no checkout (main.tsx): the heading the error code stands for, and the server's words
 * or the page's own message.
 */
export function LinkErrorMessage({
  config,
  code,
  message,
}: {
  config: PageConfig | null;
  code: string | null;
  message: string | Message;
}) {
  const { t } = useT();
  return (
    <PageMessage
      config={config}
      title={t(linkErrorTitleKey(code))}
      message={typeof message === 'string' ? message : t(message.key, message.values)}
    />
  );
}

/** The order as the page last read it (the cart a link opened is cached under both tokens), for the error view. */
function lastKnownOrder(client: QueryClient, routeToken: string): Pick<PageFailureFacts, 'order' | 'total'> {
  const first = client.getQueryData<Cart>(cartKey(routeToken));
  const cart = (first && client.getQueryData<Cart>(cartKey(first.cart_token))) ?? first;
  return cart ? { order: cart.order, total: cart.total } : { order: null, total: 0 };
}

function CheckoutSession(props: CheckoutAppProps & { api: CheckoutApi; queryClient: QueryClient }) {
  const { config, api, queryClient, now, routeToken, loadCardProcessor } = props;
  const { t, language } = useT();
  const [auth, setAuth] = useState<'pending' | 'ready' | 'failed'>('pending');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void api.http.start().then((ok) => {
      if (current) setAuth(ok ? 'ready' : 'failed');
    });
    return () => {
      current = false;
    };
  }, [api, attempt]);
  const retryStart = () => {
    setAuth('pending');
    setAttempt((value) => value + 1);
  };

  // A __c__ link or __g__ claim answers a cart of its own (cached under both tokens): from then on the page uses it.
  const enabled = auth === 'ready';
  const first = useQuery({ ...cartQuery(api, queryClient, routeToken), enabled });
  const token = first.data?.cart_token ?? routeToken;
  const cart = useQuery({ ...cartQuery(api, queryClient, token), enabled });
  const [router, dispatchRouter] = useReducer(routerStatusReducer, routeToken, initialRouterStatus);
  // The whole page renders when the cart first arrives: in the background, in slices, so the browser stays
  // responsive meanwhile (the loading view stays up until it is ready); later cart changes render at once.
  const pageReady = useDeferredValue(cart.data !== undefined);
  const hasBumps = (cart.data?.bumps.length ?? 0) > 0;
  useEffect(() => {
    if (hasBumps) preloadBumpOffers();
  }, [hasBumps]);
  // Once the cart is here: the language the page opened in is kept with it (the switcher keeps a later choice).
  const open = cart.data !== undefined && cart.data.order.status !== 'complete';
  useKeepOpeningLanguage(api, queryClient, open ? token : null, language, config.kept_language ?? null);
  const resolvedToken = first.data?.cart_token;
  useEffect(() => {
    if (resolvedToken === undefined) return;
    // The address bar names the cart itself, so a reload reads it again instead of making another one.
    if (resolvedToken !== routeToken) replaceAddressToken(resolvedToken);
    dispatchRouter({ type: 'route_resolved', cartToken: resolvedToken });
    if (rememberCartToken(resolvedToken)) dispatchRouter({ type: 'cookie_set' });
  }, [resolvedToken, routeToken]);

  if (auth === 'failed') {
    return (
      <PageMessage
        config={config}
        title={t('checkout.start_failed_title')}
        message={shopperMessageOf(api.http.startError ?? NO_ACCESS_TOKEN_MESSAGE, t)}
        onRetry={retryStart}
      />
    );
  }
  const error = first.error ?? cart.error;
  if (error) {
    const failure = failureOf(error, t);
    return (
      <PageMessage
        config={config}
        title={t(failure.status === 404 ? linkErrorTitleKey(failure.code) : 'checkout.load_failed_title')}
        message={failure.message}
        {...(failure.status === 404 ? {} : { onRetry: () => void (first.error ? first : cart).refetch() })}
      />
    );
  }
  if (!cart.data || !pageReady || router.routeChanging) return <Loading config={config} />;

  if (cart.data.order.status === 'complete') {
    return (
      <PageShell config={config}>
        <Suspense fallback={<p role="status">{t('checkout.loading_confirmation')}</p>}>
          <ConfirmationView
            cart={cart.data}
            api={api}
            cardProcessor={config.card_processor}
            {...(loadCardProcessor ? { loadCardProcessor } : {})}
          />
        </Suspense>
      </PageShell>
    );
  }
  return (
    <Suspense fallback={<Loading config={config} />}>
      <CheckoutView
        config={config}
        api={api}
        token={token}
        cart={cart.data}
        {...(now ? { now } : {})}
        {...(loadCardProcessor ? { loadCardProcessor } : {})}
      />
    </Suspense>
  );
}
