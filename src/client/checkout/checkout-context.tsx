import { createContext, useContext, type Dispatch, type SetStateAction } from 'react';
import type { Cart } from '../../contract/cart.js';
import type { PageConfig } from '../../contract/page-config.js';
import type { ProcessOrderAction, ProcessOrderState } from '../../domain/process-order-state.js';
import type { CheckoutApi } from '../api/checkout-api.js';
import type { SectionType } from '../../contract/organization.js';
import type { CheckoutForm, FormAction } from './form/checkout-form.js';
import type { SectionContext } from './section-rules.js';
import type { LoadCardProcessor } from './payment/processors/load-card-processor.js';

export interface ExpressState {
  /** idle: not used; loading: reading the approval; active: approved and in use; failed: message says why */
  status: 'idle' | 'loading' | 'active' | 'failed';
  paymentTokenId: string | null;
  payerEmail: string | null;
  /** what the payer approved at the provider (major units); the order charges the final total */
  approvedAmount: number | null;
  message: string | null;
}

export const IDLE_EXPRESS: ExpressState = {
  status: 'idle',
  paymentTokenId: null,
  payerEmail: null,
  approvedAmount: null,
  message: null,
};

export interface CheckoutContextValue {
  config: PageConfig;
  api: CheckoutApi;
  /** the cart's own token (after a __c__/__g__ token was replaced) */
  token: string;
  cart: Cart;
  /** writes a cart answer into the cache (the page re-renders from it) */
  setCart: (cart: Cart) => void;
  /** changes the cached cart from its latest value (answers that carry only part of it) */
  updateCart: (update: (cart: Cart) => Cart) => void;
  refetchCart: () => Promise<void>;
  form: CheckoutForm;
  dispatchForm: Dispatch<FormAction>;
  orderState: ProcessOrderState;
  dispatchOrder: Dispatch<ProcessOrderAction>;
  express: ExpressState;
  setExpress: Dispatch<SetStateAction<ExpressState>>;
  testCards: readonly string[];
  now: () => Date;
  /** the card processor's adapter when one was given (tests); null: the configured one, loaded by the payment step */
  loadCardProcessor: LoadCardProcessor | null;
  sectionContext: (form?: CheckoutForm) => SectionContext;
  /** sections showing their error summary, with a message not tied to a field */
  sectionAlerts: Partial<Record<SectionType, { message: string | null }>>;
  setSectionAlert: (component: SectionType, alert: { message: string | null } | null) => void;
  /** focuses a field after the next render (once its section is open) */
  requestFocus: (name: string) => void;
}

export const CheckoutContext = createContext<CheckoutContextValue | null>(null);

export function useCheckout(): CheckoutContextValue {
  const value = useContext(CheckoutContext);
  if (!value) throw new Error('useCheckout() outside <CheckoutProvider>');
  return value;
}
