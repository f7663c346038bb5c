import { useState } from 'react';
import { navigateTo } from '../../boot/navigate-to.js';
import { Button } from '../../ui/button.js';
import { useCheckout } from '../checkout-context.js';
import { useT } from '../../i18n/use-t.js';
import type { Language } from '../../../i18n/languages.js';

/**
 * The provider's approval page in the page's language: the test provider's page is the checkout server's own
 * (same origin) and reads `lang`; another provider's URL is left as it is.
 */
export function providerUrl(url: string, language: Language): string {
  const target = new URL(url, window.location.href);
  if (target.origin !== window.location.origin) return url;
  target.searchParams.set('lang', language);
  return `${target.pathname}${target.search}${target.hash}`;
}

/**
 * The PayPal-style button at the top of the page, above contact details: shoppers who use it fill in nothing first.
 * Its flow loads only when pressed.
 */
export function ExpressCheckout() {
  const { api, token, cart, express } = useCheckout();
  const { t, language } = useT();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (express.status === 'active') return null;
  const shown = message ?? (express.status === 'failed' ? express.message : null);
  return (
    <section className="express" aria-labelledby="express-heading">
      <h2 className="express__heading" id="express-heading">
        {t('payment.express_heading')}
      </h2>
      <Button
        variant="wallet"
        block
        disabled={busy || express.status === 'loading'}
        aria-busy={busy}
        onClick={async () => {
          setBusy(true);
          setMessage(null);
          const { startExpressPayment } = await import('./express-flow.js');
          const result = await startExpressPayment(api, token, cart, t);
          if (result.ok) {
            navigateTo(providerUrl(result.url, language));
            return;
          }
          setMessage(result.message);
          setBusy(false);
        }}
      >
        {busy ? t('payment.opening_paypal') : t('payment.pay_with_paypal')}
      </Button>
      {express.status === 'loading' ? <p role="status">{t('payment.checking_paypal')}</p> : null}
      {shown ? (
        <p className="notice notice--warning" role="alert">
          {shown}
        </p>
      ) : null}
      <p className="express__divider">
        <span>{t('payment.or_continue_below')}</span>
      </p>
    </section>
  );
}
