import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Cart } from '../../contract/cart.js';
import {
  isLatestPreview,
  previewKey,
  previewQueryParams,
  type PreviewInput,
} from '../../domain/preview-query.js';
import { effectiveSameAddress } from '../../domain/same-address.js';
import { updateCachedCart, withPreview } from '../api/cart-queries.js';
import type { CheckoutApi } from '../api/checkout-api.js';
import type { CheckoutForm, FormAction } from './form/checkout-form.js';

/** Typing a ZIP code asks once, after the shopper pauses. */
export const PREVIEW_DEBOUNCE_MS = 400;

export function previewInputOf(form: CheckoutForm, cart: Cart): PreviewInput {
  const text = (name: string) => form.text[name] ?? '';
  const shipping = cart.order.shipping_information_required;
  return {
    ship_country: shipping ? text('ship_country') : null,
    ship_state: shipping ? text('ship_state') : null,
    ship_zipcode: shipping ? text('ship_zipcode') : null,
    ship_city: shipping ? text('ship_city') : null,
    bill_country: text('bill_country'),
    bill_state: text('bill_state'),
    bill_zipcode: text('bill_zipcode'),
    same_address: effectiveSameAddress(form.sameAddress, shipping),
    shipping_profile_id: shipping ? text('shipping_profile_id') : null,
  };
}

function storedPreviewInput(cart: Cart): PreviewInput | null {
  const stored = cart.preview;
  if (!stored) return null;
  return {
    ship_country: stored.ship_country,
    ship_state: stored.ship_state,
    ship_zipcode: stored.ship_zipcode,
    ship_city: stored.ship_city,
    bill_country: stored.bill_country,
    bill_state: stored.bill_state,
    bill_zipcode: stored.bill_zipcode,
    same_address: stored.same_address,
    shipping_profile_id: stored.shipping_profile_id,
  };
}

/**
 * Asks for tax and shipping when the address or the shipping method changes: debounced, each request with a new
 * version, and only the answer to the latest request applied. The answer's shipping method becomes the form's (the
 * server picks one when none was chosen or the chosen one does not serve the country). A notice or failure the server
 * said is asked again after a language switch, so it is said in the page's new language.
 */
export function useCartPreview(input: {
  api: CheckoutApi;
  token: string;
  cart: Cart;
  form: CheckoutForm;
  dispatchForm: (action: FormAction) => void;
  language: string;
}) {
  const { api, token, cart, form, dispatchForm, language } = input;
  const queryClient = useQueryClient();
  const shipping = cart.order.shipping_information_required;
  const key = previewKey(previewInputOf(form, cart));
  // The cart's stored preview already answers its own address: no request for it.
  const [storedKey] = useState(() => {
    const stored = storedPreviewInput(cart);
    return stored ? previewKey(stored) : '';
  });
  const lastKey = useRef(storedKey);
  const version = useRef(0);
  const [pending, setPending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [saidIn, setSaidIn] = useState(language);
  const saysOtherLanguage = (notice !== null || failed !== null) && saidIn !== language;

  useEffect(() => {
    if (key === lastKey.current && !saysOtherLanguage) return;
    const timer = window.setTimeout(() => {
      lastKey.current = key;
      version.current += 1;
      const requested = String(version.current);
      // The key is the normalised query itself ('null' for empty values), without the version.
      const query = JSON.parse(key) as Record<string, string>;
      setPending(true);
      api
        .getPreview(token, previewQueryParams({ ...query, version: requested }))
        .then((answer) => {
          if (!isLatestPreview(answer.version, String(version.current))) return;
          updateCachedCart(queryClient, token, (cached) => withPreview(cached, answer));
          setNotice(answer.notice?.message ?? null);
          setFailed(null);
          setSaidIn(language);
          const asked = query.shipping_profile_id === 'null' ? '' : (query.shipping_profile_id ?? '');
          const chosen = answer.order.shipping_profile_id;
          if (shipping && chosen !== asked) {
            // Taking the server's choice changes the key; remember it so the same question is not asked again.
            lastKey.current = previewKey({ ...query, shipping_profile_id: chosen });
            dispatchForm({ type: 'set', name: 'shipping_profile_id', value: chosen });
          }
        })
        .catch((error: unknown) => {
          if (requested !== String(version.current)) return;
          lastKey.current = '';
          // An answer without words of its own ('') is said by the page in its language.
          setFailed(error instanceof Error ? error.message : '');
          setSaidIn(language);
        })
        .finally(() => {
          if (requested === String(version.current)) setPending(false);
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [key, saysOtherLanguage, language, shipping, api, token, queryClient, dispatchForm]);

  return { pending, notice, failed };
}
