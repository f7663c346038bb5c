import { useEffect, useRef } from 'react';
import { removeQueryParameter } from '../../boot/route-token.js';
import { IDLE_EXPRESS, useCheckout, type ExpressState } from '../checkout-context.js';
import { formReducer, type CheckoutForm } from '../form/checkout-form.js';
import { useT } from '../../i18n/use-t.js';

export const PAYMENT_TOKEN_PARAMETER = 'payment_token_id';

/**
 * Back from the express provider (?payment_token_id=…): reads the approval, fills contact and shipping from the payer,
 * sets the same-address box to false and makes express payment active (billing hides). A cancelled, expired or used
 * approval shows why and leaves the other ways to pay.
 */
export function useExpressReturn(onApproved: (form: CheckoutForm, express: ExpressState) => void) {
  const { api, token, form, dispatchForm, setExpress } = useCheckout();
  const { t } = useT();
  const started = useRef(false);

  useEffect(() => {
    const paymentTokenId = new URLSearchParams(window.location.search).get(PAYMENT_TOKEN_PARAMETER);
    if (!paymentTokenId || started.current) return;
    started.current = true;
    setExpress({ ...IDLE_EXPRESS, status: 'loading' });
    void import('./express-flow.js')
      .then(({ readExpressReturn }) => readExpressReturn(api, token, paymentTokenId, t))
      .then((result) => {
        if (!result.ok) {
          setExpress({ ...IDLE_EXPRESS, status: 'failed', message: result.message });
          removeQueryParameter(PAYMENT_TOKEN_PARAMETER);
          return;
        }
        const express: ExpressState = {
          status: 'active',
          paymentTokenId: result.paymentTokenId,
          payerEmail: result.payerEmail,
          approvedAmount: result.approvedAmount,
          message: null,
        };
        dispatchForm({ type: 'setMany', values: result.values });
        dispatchForm({ type: 'setSameAddress', value: result.sameAddress });
        setExpress(express);
        const filled = formReducer(formReducer(form, { type: 'setMany', values: result.values }), {
          type: 'setSameAddress',
          value: result.sameAddress,
        });
        onApproved(filled, express);
      });
  }, [api, token, form, dispatchForm, setExpress, onApproved, t]);

  return {
    /** back to paying by card: the approval is dropped and the address bar forgets it */
    leaveExpress() {
      setExpress(IDLE_EXPRESS);
      removeQueryParameter(PAYMENT_TOKEN_PARAMETER);
    },
  };
}
