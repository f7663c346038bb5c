import type {
  Stripe,
  StripePaymentElementCardDetailsChangeEvent,
  StripePaymentElementChangeEvent,
} from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type {
  CardFieldsState,
  CardProcessor,
  MountedCardFields,
  Outcome,
  PaymentAction,
} from './card-processor.js';
import type { Translate } from '../../../i18n/use-t.js';

// Stripe's Payment Element as the page's card fields (docs/payments.md, "Stripe"). The element lives in Stripe's
// frames on js.stripe.com: the page hears what the element's events say (the chosen method, complete, empty, the
// card's brand) and finally a PaymentMethod id (pm_…), which the order sends as its card token.

/** loadStripe's shape: Stripe.js for a publishable key, or null when it cannot run here. */
export type LoadStripeFn = (publishableKey: string) => Promise<Stripe | null>;

// Its messages are the page's (payment.* in src/i18n/catalogues), in the page's language; Stripe's own errors come
// in the language its elements were made with (`locale`).

/** Stripe's brand names → ours; another brand Stripe knows is "other" (refused by the page), "unknown" is null. */
const BRANDS: Record<string, CardFieldsState['brand']> = {
  visa: 'visa',
  mastercard: 'mastercard',
  discover: 'discover',
  amex: 'american-express',
  unknown: null,
};

/**
 * The brand of the card being typed, where Stripe says it: one of ours when any of the card's brands is (a
 * co-badged card names several), "other" for a brand we do not take, null while Stripe does not know.
 */
export function brandOfStripe(brands: readonly string[] | null | undefined): CardFieldsState['brand'] {
  const known = (brands ?? []).filter((brand) => brand !== 'unknown');
  if (known.length === 0) return null;
  for (const brand of known) {
    const ours = BRANDS[brand];
    if (ours) return ours;
  }
  return 'other';
}

const isSettled = (status: string | undefined) =>
  status === 'succeeded' || status === 'requires_capture' || status === 'processing';

/** The bank's challenge for a PaymentIntent the server confirmed (requires_action), run by Stripe.js. */
async function handleAction(stripe: Stripe, action: PaymentAction, t: Translate): Promise<Outcome> {
  const notConfirmed = t('payment.bank_not_confirmed');
  if (action.type !== 'stripe') return { ok: false, message: notConfirmed };
  try {
    const result = await stripe.handleNextAction({ clientSecret: action.client_secret });
    if (result.error) {
      return { ok: false, message: result.error.message ?? notConfirmed };
    }
    return isSettled(result.paymentIntent?.status) ? { ok: true } : { ok: false, message: notConfirmed };
  } catch {
    return { ok: false, message: notConfirmed };
  }
}

/**
 * The Stripe adapter. `loadStripeFn` is Stripe's loader (it adds https://js.stripe.com/v3 to the page when first
 * called); tests pass a fake Stripe through it.
 */
export function createStripeProcessor(
  config: { publishable_key: string },
  loadStripeFn: LoadStripeFn = loadStripe,
): CardProcessor {
  return {
    // A one-click upsell's payment (docs/api.md, "Upsells"): Stripe.js alone, no Payment Element.
    async authenticate(action, t): Promise<Outcome> {
      const stripe = await loadStripeFn(config.publishable_key).catch(() => null);
      if (!stripe) return { ok: false, message: t('payment.card_form_unavailable') };
      return handleAction(stripe, action, t);
    },
    async mount(container, options): Promise<MountedCardFields> {
      const stripe = await loadStripeFn(config.publishable_key);
      const { t } = options;
      if (!stripe) throw new Error(t('payment.card_form_unavailable'));
      const elements = stripe.elements(
        options.purpose === 'setup'
          ? {
              // A subscriber's new card: the server saves it through a SetupIntent, nothing is charged now.
              mode: 'setup',
              currency: options.currency.toLowerCase(),
              paymentMethodCreation: 'manual',
              allowedPaymentMethodTypes: ['card'],
              setupFutureUsage: 'off_session',
              locale: options.language,
            }
          : {
              mode: 'payment',
              // Stripe's labels and its own errors in the page's language.
              locale: options.language,
              amount: options.amount,
              currency: options.currency.toLowerCase(),
              // The PaymentMethod is made here and the server creates and confirms the PaymentIntent with it.
              paymentMethodCreation: 'manual',
              // Cards, with the wallets Stripe offers for them (Apple Pay, Google Pay: cards with a brand the server
              // checks and records). Link pays with no brand, last 4 or expiry to check, so it is not offered
              // (docs/payments.md).
              allowedPaymentMethodTypes: ['card'],
              // A subscription's card is charged again off-session: wallets must give a reusable one.
              ...(options.storeForFuture ? { setupFutureUsage: 'off_session' as const } : {}),
            },
      );
      const element = elements.create('payment', {
        layout: 'tabs',
        wallets: { applePay: 'auto', googlePay: 'auto', link: 'never' },
      });
      let method = 'card';
      let cardBrand: CardFieldsState['brand'] = null;
      let last: Pick<StripePaymentElementChangeEvent, 'complete' | 'empty'> = {
        complete: false,
        empty: true,
      };
      const tell = () =>
        options.onChange({
          // A wallet or Link pays with a card Stripe keeps: no brand to show or refuse before the server sees it.
          brand: method === 'card' ? cardBrand : null,
          complete: last.complete,
          empty: last.empty,
          // The element shows its own messages inside its frame.
          error: null,
        });
      element.on('change', (event: StripePaymentElementChangeEvent) => {
        method = event.value.type;
        last = { complete: event.complete, empty: event.empty };
        tell();
      });
      element.on('carddetailschange', (event: StripePaymentElementCardDetailsChangeEvent) => {
        cardBrand = brandOfStripe(event.details?.brands ?? null);
        tell();
      });
      element.mount(container);

      return {
        update(next) {
          void elements.update({
            amount: next.amount,
            currency: next.currency.toLowerCase(),
            setupFutureUsage: next.storeForFuture ? 'off_session' : null,
          });
        },
        setLanguage(language) {
          // Stripe's labels and errors follow in place: a new element would lose the card typed into it.
          void elements.update({ locale: language });
        },
        async tokenize(): Promise<Outcome<{ token: string }>> {
          try {
            // First, in the shopper's click: it checks the fields and opens a wallet's sheet.
            const submitted = await elements.submit();
            if (submitted.error) {
              return { ok: false, message: submitted.error.message ?? t('payment.tokenize_failed') };
            }
            const created = await stripe.createPaymentMethod({ elements });
            if (created.error)
              return { ok: false, message: created.error.message ?? t('payment.tokenize_failed') };
            return { ok: true, token: created.paymentMethod.id };
          } catch {
            return { ok: false, message: t('payment.tokenize_failed') };
          }
        },
        authenticate: (action) => handleAction(stripe, action, t),
        focus() {
          element.focus();
        },
        destroy() {
          element.destroy();
        },
      };
    },
  };
}
