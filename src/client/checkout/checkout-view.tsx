import { CheckoutPage } from './checkout-page.js';
import { CheckoutProvider, type CheckoutProviderProps } from './checkout-provider.js';
/**
 * The checkout around one cart: its state and its page. A chunk of its own (page-chunks.ts loads it beside the
 * handshake): the page's first chunk only has to start the session and show the loading view.
 */
export default function CheckoutView(props: Omit<CheckoutProviderProps, 'children'>) {
  return (
    <CheckoutProvider {...props}>
      <CheckoutPage />
    </CheckoutProvider>
  );
}
