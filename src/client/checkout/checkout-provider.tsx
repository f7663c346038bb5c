import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import type { Cart } from '../../contract/cart.js';
import type { SectionType } from '../../contract/organization.js';
import type { PageConfig } from '../../contract/page-config.js';
import { testCardsFrom } from '../../domain/editable-cart.js';
import { initialProcessOrderState, processOrder } from '../../domain/process-order-state.js';
import { invalidateCart, setCachedCart, updateCachedCart } from '../api/cart-queries.js';
import type { CheckoutApi } from '../api/checkout-api.js';
import { useT } from '../i18n/use-t.js';
import { focusField } from '../ui/field-ids.js';
import {
  CheckoutContext,
  IDLE_EXPRESS,
  type CheckoutContextValue,
  type ExpressState,
} from './checkout-context.js';
import {
  formReducer,
  initialForm,
  readStoredForm,
  sessionStore,
  writeStoredForm,
} from './form/checkout-form.js';
import type { LoadCardProcessor } from './payment/processors/load-card-processor.js';

export interface CheckoutProviderProps {
  config: PageConfig;
  api: CheckoutApi;
  token: string;
  cart: Cart;
  now?: () => Date;
  /** the card processor's adapter (tests pass a fake); null: the one the config names, loaded lazily */
  loadCardProcessor?: LoadCardProcessor;
  children: ReactNode;
}

const systemNow = () => new Date();

/** The page's state around one cart: the form, the order button's state, the express payment. */
export function CheckoutProvider({
  config,
  api,
  token,
  cart,
  now = systemNow,
  loadCardProcessor,
  children,
}: CheckoutProviderProps) {
  const queryClient = useQueryClient();
  const [form, dispatchForm] = useReducer(formReducer, null, () =>
    initialForm(cart, readStoredForm(sessionStore(), token), now()),
  );
  const orderOptions = config.client_options;
  const [orderState, dispatchOrder] = useReducer(processOrder, null, () =>
    initialProcessOrderState(orderOptions, { isRecurring: cart.order.is_recurring, offers: cart.offers }),
  );
  const [express, setExpress] = useState<ExpressState>(IDLE_EXPRESS);
  const [sectionAlerts, setSectionAlerts] = useState<CheckoutContextValue['sectionAlerts']>({});
  const [pendingFocus, setPendingFocus] = useState<{ name: string } | null>(null);

  const setSectionAlert = useCallback((component: SectionType, alert: { message: string | null } | null) => {
    setSectionAlerts((alerts) => {
      const next = { ...alerts };
      if (alert) next[component] = alert;
      else delete next[component];
      return next;
    });
  }, []);
  const requestFocus = useCallback((name: string) => setPendingFocus({ name }), []);

  // Runs after the render that opened the field's section; a section that loads on demand (gifts) gets a few frames.
  useEffect(() => {
    if (!pendingFocus) return;
    let frame = 0;
    let handle = 0;
    const attempt = () => {
      if (focusField(pendingFocus.name) || frame++ > 120) return;
      handle = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(handle);
  }, [pendingFocus]);

  // Nothing typed is lost on a reload: non-sensitive fields are kept for this tab.
  useEffect(() => {
    writeStoredForm(sessionStore(), token, form);
  }, [form, token]);

  // After each cart answer the terms box's display is recomputed; the button is usable once a cart is here.
  useEffect(() => {
    dispatchOrder({
      type: 'cartFetched',
      facts: { isRecurring: cart.order.is_recurring, offers: cart.offers },
      options: orderOptions,
    });
    dispatchOrder({ type: 'setDisabled', disabled: cart.offers.length === 0 });
  }, [cart, orderOptions]);

  const setCart = useCallback((next: Cart) => setCachedCart(queryClient, token, next), [queryClient, token]);
  const updateCart = useCallback(
    (update: (cart: Cart) => Cart) => updateCachedCart(queryClient, token, update),
    [queryClient, token],
  );
  const refetchCart = useCallback(() => invalidateCart(queryClient, token), [queryClient, token]);

  // testCardsFrom answers a new [] when the store lists none: kept, so the context value below stays the same.
  const configuredTestCards = config.client_options.testCards;
  const testCards = useMemo(() => testCardsFrom(configuredTestCards), [configuredTestCards]);
  const { t } = useT();
  const value = useMemo<CheckoutContextValue>(
    () => ({
      config,
      api,
      token,
      cart,
      setCart,
      updateCart,
      refetchCart,
      form,
      dispatchForm,
      orderState,
      dispatchOrder,
      express,
      setExpress,
      testCards,
      now,
      loadCardProcessor: loadCardProcessor ?? null,
      sectionContext: (override) => ({
        form: override ?? form,
        cart,
        now: now(),
        expressPaymentTokenId: express.status === 'active' ? express.paymentTokenId : null,
        subscriptionTerms: orderState.subscriptionTerms,
        say: (message) => t(message.key, message.values),
      }),
      sectionAlerts,
      setSectionAlert,
      requestFocus,
    }),
    [
      config,
      api,
      token,
      cart,
      setCart,
      updateCart,
      refetchCart,
      form,
      orderState,
      express,
      testCards,
      now,
      loadCardProcessor,
      sectionAlerts,
      setSectionAlert,
      requestFocus,
      t,
    ],
  );
  return <CheckoutContext.Provider value={value}>{children}</CheckoutContext.Provider>;
}
