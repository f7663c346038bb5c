import { useState } from 'react';
import { navigateTo } from '../../boot/navigate-to.js';
import { Button } from '../../ui/button.js';
import { useCheckout } from '../checkout-context.js';

/**
 * The PayPal-style button at the top of the page, above contact details: shoppers who use it fill in nothing first.
 * Its flow loads only when pressed.
 */
export function ExpressCheckout() {
  const { api, token, cart, express } = useCheckout();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (express.status === 'active') return null;
  const shown = message ?? (express.status === 'failed' ? express.message : null);
  return (
    <section className="express" aria-labelledby="express-heading">
      <h2 className="express__heading" id="express-heading">
        Express checkout
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
          const result = await startExpressPayment(api, token, cart);
          if (result.ok) {
            navigateTo(result.url);
            return;
          }
          setMessage(result.message);
          setBusy(false);
        }}
      >
        {busy ? 'Opening PayPal…' : 'Pay with PayPal'}
      </Button>
      {express.status === 'loading' ? <p role="status">Checking your PayPal approval…</p> : null}
      {shown ? (
        <p className="notice notice--warning" role="alert">
          {shown}
        </p>
      ) : null}
      <p className="express__divider">
        <span>or continue below</span>
      </p>
    </section>
  );
}
