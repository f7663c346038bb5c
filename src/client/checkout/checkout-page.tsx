import { Suspense, useEffect, useEffectEvent, useMemo, useReducer, useRef, type ReactNode } from 'react';
import type { SectionType } from '../../contract/organization.js';
import {
  INITIAL_NAVIGATION,
  autoAdvance,
  checkoutNavigation,
  firstInvalidVisibleIndex,
  openSectionIndex,
  type NavigationState,
} from '../../domain/checkout-navigation.js';
import { hasFieldErrors } from '../../domain/field-errors.js';
import { historyStateFor, isBackInHistory, sectionOfHistoryState } from '../../domain/section-history.js';
import { visibleSectionMask, type VisibilityFacts } from '../../domain/section-visibility.js';
import { afterNextPaint } from '../boot/after-first-paint.js';
import { useT } from '../i18n/use-t.js';
import { useAnnounce } from '../ui/live-region.js';
import { preloadedLazy } from '../ui/preloaded-lazy.js';
import { BillingSummary } from './billing/billing-summary.js';
import { IDLE_EXPRESS, useCheckout, type CheckoutContextValue } from './checkout-context.js';
import { ContactSection, ContactSummary } from './contact/contact-section.js';
import { ExpressCheckout } from './express/express-checkout.js';
import { useExpressReturn } from './express/use-express-return.js';
import { GiftFromNote } from './gifts/gift-from-note.js';
import { GiftSection, GiftSummary } from './gifts/gift-section.js';
import { ProcessingOverlay } from './overlay/processing-overlay.js';
import { PageShell } from './page-shell.js';
import { SectionFrame, sectionHeadingId, type SectionStatus } from './section-frame.js';
import { BACK_KEYS, CHANGE_KEYS, CONTINUE_KEYS, SECTION_TITLE_KEYS } from './section-titles.js';
import { giftsMatchCart, validateSection } from './section-rules.js';
import { ShippingSummary } from './shipping/shipping-summary.js';
import { OrderSummary } from './summary/order-summary.js';
import { useCartPreview } from './use-cart-preview.js';
import { paymentStepChunk } from './payment/payment-step-chunk.js';
import { LanguageSwitcher } from './language/language-switcher.js';

// Card fields, the order button and the order's answers: fetched with the handshake (page-chunks.ts), so a page
// that opens at payment renders whole, at once.
const PaymentStep = paymentStepChunk.Component;
// The address steps (country list, states, shipping methods) are closed when the page first paints: they load
// right after it, before the shopper can reach them.
const shippingSection = preloadedLazy(async () => ({
  default: (await import('./shipping/shipping-section.js')).ShippingSection,
}));
const ShippingSection = shippingSection.Component;
const billingSection = preloadedLazy(async () => ({
  default: (await import('./billing/billing-section.js')).BillingSection,
}));
const BillingSection = billingSection.Component;

/** The final step when no payment is needed (a free order, a gift claim): review and place the order. */
const REVIEW_ID = 'review';

export function visibilityFactsOf(
  checkout: Pick<CheckoutContextValue, 'cart' | 'form' | 'express'>,
): VisibilityFacts {
  const { cart, form, express } = checkout;
  return {
    expressCheckoutActive: express.status === 'active',
    sameAddress: form.sameAddress,
    shippingInformationRequired: cart.order.shipping_information_required,
    total: cart.total,
    isRecurring: cart.order.is_recurring,
    hasGiftOffer: cart.offers.some((offer) => offer.is_gift),
  };
}

/** Steps: the organization's sections, plus a review step at the end when the payment section is hidden. */
function stepMask(checkout: CheckoutContextValue): {
  steps: (SectionType | typeof REVIEW_ID)[];
  visible: boolean[];
} {
  const sections = checkout.config.sections;
  const visible = visibleSectionMask(sections, visibilityFactsOf(checkout));
  const paymentShown = sections.some(
    (section, index) => section.component === 'PaymentInformation' && visible[index],
  );
  return {
    steps: [...sections.map((section) => section.component), REVIEW_ID],
    visible: [...visible, !paymentShown],
  };
}

/** Whether a step needs nothing more from the shopper (the page may move past it by itself). */
function isStepComplete(
  checkout: CheckoutContextValue,
  step: SectionType | typeof REVIEW_ID | undefined,
): boolean {
  if (step === undefined || step === REVIEW_ID || step === 'PaymentInformation') return false;
  if (hasFieldErrors(validateSection(step, checkout.sectionContext()))) return false;
  return step !== 'GiftInformation' || giftsMatchCart(checkout.cart, checkout.form.text);
}

/** The next shown step after `from` (itself when it is the last). */
function nextShownIndex(visible: readonly boolean[], from: number): number {
  for (let i = from + 1; i < visible.length; i++) if (visible[i]) return i;
  return from;
}

/** Holds a step's place while its form loads, so the steps below it do not jump. */
function SectionLoading() {
  const { t } = useT();
  return (
    <p className="section__loading" role="status">
      {t('checkout.loading')}
    </p>
  );
}

export function CheckoutPage() {
  const checkout = useCheckout();
  const { config, cart, form, api, token, dispatchForm, orderState } = checkout;
  const announce = useAnnounce();
  const { t, language } = useT();
  const { steps, visible } = stepMask(checkout);
  const stepIds = useMemo(
    () => [...config.sections.map((section) => section.id), REVIEW_ID],
    [config.sections],
  );
  const [nav, dispatchNav] = useReducer(checkoutNavigation, null, (): NavigationState => {
    // Saved details that are already complete: start at the first step that needs the shopper.
    const start = autoAdvance(INITIAL_NAVIGATION, visible, (index) => isStepComplete(checkout, steps[index]));
    // A reload (or a return to this entry) reopens the step its history entry names.
    const entry = sectionOfHistoryState(window.history.state);
    const index = entry ? stepIds.indexOf(entry.checkoutSection) : -1;
    return index >= 0 ? checkoutNavigation(start, { type: 'restore', index, visible }) : start;
  });
  const open = openSectionIndex(nav, visible);
  const firstInvalid = firstInvalidVisibleIndex(nav, visible);
  // Set when the shopper's own move opens another step: that step gets a history entry of its own.
  const pushEntry = useRef(false);
  const navigate = (action: { type: 'next' | 'back' } | { type: 'moveTo'; index: number }) => {
    const moved = checkoutNavigation(nav, { ...action, visible });
    if (openSectionIndex(moved, visible) !== open) pushEntry.current = true;
    dispatchNav({ ...action, visible });
  };
  /** The page's Back: the browser's Back when the entry before opens that step, so both leave the same history. */
  const goBack = () => {
    const target = openSectionIndex(checkoutNavigation(nav, { type: 'back', visible }), visible);
    if (target === open) return;
    if (isBackInHistory(window.history.state, stepIds[target] ?? '')) window.history.back();
    else navigate({ type: 'back' });
  };
  // The browser's Back and Forward open the step their entry names; entries the checkout did not mark are left alone.
  const onHistoryMove = useEffectEvent((state: unknown) => {
    const entry = sectionOfHistoryState(state);
    const index = entry ? stepIds.indexOf(entry.checkoutSection) : -1;
    if (index < 0) return;
    pushEntry.current = false;
    dispatchNav({ type: 'restore', index, visible });
  });
  useEffect(() => {
    const listener = (event: PopStateEvent) => onHistoryMove(event.state);
    window.addEventListener('popstate', listener);
    return () => window.removeEventListener('popstate', listener);
  }, []);
  /** Marks the current entry with the open step (a move the page made by itself, the first view). */
  const markEntry = useEffectEvent(() => {
    const id = stepIds[open];
    const entry = sectionOfHistoryState(window.history.state);
    if (!id || entry?.checkoutSection === id) return;
    const marked = historyStateFor(window.history.state, {
      checkoutSection: id,
      checkoutPrevious: entry?.checkoutPrevious ?? null,
    });
    window.history.replaceState(marked, '', window.location.href);
  });
  useEffect(() => markEntry(), []);

  const visibleComponents = config.sections
    .filter((_, index) => visible[index])
    .map((section) => section.component);
  const billingIndex = steps.indexOf('BillingAddress');
  const paymentIndex = steps.indexOf('PaymentInformation');
  const openSection = (component: SectionType) =>
    navigate({ type: 'moveTo', index: steps.indexOf(component) });

  const preview = useCartPreview({ api, token, cart, form, dispatchForm, language });
  const paymentStepProps = {
    visibleComponents,
    billingShown: billingIndex >= 0 && visible[billingIndex] === true,
    openSection,
  };
  /** Moves past every step that needs nothing more (after the express payer's details came in). */
  const advancePastCompleteSteps = (now: CheckoutContextValue) => {
    const mask = stepMask(now).visible;
    let state = nav;
    while (isStepComplete(now, steps[openSectionIndex(state, mask)])) {
      const moved = checkoutNavigation(state, { type: 'advance', visible: mask });
      if (moved.current === state.current) break;
      state = moved;
      pushEntry.current = true;
      dispatchNav({ type: 'advance', visible: mask });
    }
  };
  // The payer's address asks for a preview; once it answers (a shipping method chosen), move on again.
  const advanceAfterPreview = useRef<'off' | 'waiting' | 'previewing'>('off');
  const onPreviewSettled = useEffectEvent(() => advancePastCompleteSteps(checkout));
  useEffect(() => {
    if (advanceAfterPreview.current === 'waiting' && preview.pending)
      advanceAfterPreview.current = 'previewing';
    else if (advanceAfterPreview.current === 'previewing' && !preview.pending) {
      advanceAfterPreview.current = 'off';
      onPreviewSettled();
    }
  }, [preview.pending]);

  const { leaveExpress } = useExpressReturn((payerForm, express) => {
    const now: CheckoutContextValue = {
      ...checkout,
      form: payerForm,
      express,
      sectionContext: () => ({
        ...checkout.sectionContext(payerForm),
        expressPaymentTokenId: express.paymentTokenId,
      }),
    };
    advancePastCompleteSteps(now);
    advanceAfterPreview.current = 'waiting';
  });

  /**
   * Back to paying by card or another way: billing was the provider's while the express payment was active, so it
   * shows again with only what the shopper gave it. The first step before this one that is not complete opens,
   * unfinished, for the shopper to fill (instead of passing for done).
   */
  const payAnotherWay = () => {
    leaveExpress();
    const after: CheckoutContextValue = {
      ...checkout,
      express: IDLE_EXPRESS,
      sectionContext: (form) => ({ ...checkout.sectionContext(form), expressPaymentTokenId: null }),
    };
    const mask = stepMask(after).visible;
    const incomplete = steps.findIndex(
      (step, index) => index < open && mask[index] === true && !isStepComplete(after, step),
    );
    if (incomplete >= 0) dispatchNav({ type: 'reopen', index: incomplete, visible: mask });
  };

  useEffect(() => {
    void afterNextPaint().then(() => Promise.all([shippingSection.preload(), billingSection.preload()]));
  }, []);

  // Fetch the payment step while the shopper fills in the step before it.
  const orderStepIndex = visible.lastIndexOf(true) === steps.length - 1 ? steps.length - 1 : paymentIndex;
  const nearPayment = nextShownIndex(visible, open) >= orderStepIndex;
  useEffect(() => {
    if (nearPayment) void paymentStepChunk.preload();
  }, [nearPayment]);

  // The shopper moved to another step: give it a history entry (a move of theirs) or mark the entry (Back, Forward,
  // a step hidden meanwhile), focus its heading and say where they are.
  const previousOpen = useRef(open);
  useEffect(() => {
    if (previousOpen.current === open) return;
    const from = stepIds[previousOpen.current] ?? null;
    previousOpen.current = open;
    const id = stepIds[open];
    if (!id) return;
    if (pushEntry.current) {
      pushEntry.current = false;
      const entry = historyStateFor(window.history.state, { checkoutSection: id, checkoutPrevious: from });
      window.history.pushState(entry, '', window.location.href);
    } else markEntry();
    const heading = document.getElementById(sectionHeadingId(id));
    heading?.focus();
    heading?.scrollIntoView?.({ block: 'start' });
    // What a screen reader says for the heading itself ("Step 2: Shipping address"), without the hidden number.
    const spoken = [...(heading?.childNodes ?? [])]
      .filter((node) => !(node instanceof Element && node.getAttribute('aria-hidden') === 'true'))
      .map((node) => node.textContent)
      .join('');
    if (spoken) announce(t('checkout.section_open', { heading: spoken }));
  }, [open, stepIds, announce, t]);

  const shown = steps.map((step, index) => (visible[index] ? step : null));
  let number = 0;
  // Where each step's Back goes: the step shown before it.
  let previousStep: SectionType | null = null;
  const items: ReactNode[] = [];
  shown.forEach((step, index) => {
    if (step === null) return;
    number += 1;
    const status: SectionStatus = index === open ? 'open' : index < firstInvalid ? 'finished' : 'upcoming';
    const nextIndex = shown.findIndex((candidate, at) => at > index && candidate !== null);
    const nextStep = nextIndex >= 0 ? shown[nextIndex] : null;
    const continueLabel = t(
      nextStep === null || nextStep === undefined
        ? 'checkout.continue.payment'
        : nextStep === REVIEW_ID
          ? 'checkout.continue.review'
          : CONTINUE_KEYS[nextStep],
    );
    const onDone = () => {
      if (nextIndex >= 0) navigate({ type: 'next' });
      else if (paymentIndex >= 0) navigate({ type: 'moveTo', index: paymentIndex });
    };
    const id = stepIds[index] ?? String(index);
    const bodyProps = { continueLabel, onDone };
    const title = t(
      step !== REVIEW_ID
        ? SECTION_TITLE_KEYS[step]
        : cart.order.is_gift_claim
          ? 'checkout.section.claim'
          : 'checkout.section.review',
    );
    let body: ReactNode;
    let summary: ReactNode = null;
    switch (step) {
      case 'ContactInformation':
        body = <ContactSection {...bodyProps} />;
        summary = <ContactSummary />;
        break;
      case 'ShippingAddress':
        body = (
          <Suspense fallback={<SectionLoading />}>
            <ShippingSection {...bodyProps} previewNotice={preview.notice} previewPending={preview.pending} />
          </Suspense>
        );
        summary = <ShippingSummary />;
        break;
      case 'BillingAddress':
        body = (
          <Suspense fallback={<SectionLoading />}>
            <BillingSection {...bodyProps} />
          </Suspense>
        );
        summary = <BillingSummary />;
        break;
      case 'GiftInformation':
        body = <GiftSection {...bodyProps} />;
        summary = <GiftSummary />;
        break;
      case 'PaymentInformation':
        body = (
          <Suspense fallback={<p role="status">{t('checkout.loading_payment_form')}</p>}>
            <PaymentStep mode="payment" onLeaveExpress={payAnotherWay} {...paymentStepProps} />
          </Suspense>
        );
        break;
      default:
        body = (
          <Suspense fallback={<SectionLoading />}>
            <PaymentStep mode="review" onLeaveExpress={payAnotherWay} {...paymentStepProps} />
          </Suspense>
        );
    }
    items.push(
      <SectionFrame
        key={id}
        id={id}
        number={number}
        title={title}
        status={status}
        summary={summary}
        onChange={() => navigate({ type: 'moveTo', index })}
        {...(step !== REVIEW_ID ? { changeLabel: t(CHANGE_KEYS[step]) } : {})}
        back={previousStep === null ? null : { label: t(BACK_KEYS[previousStep]), onBack: goBack }}
      >
        {body}
      </SectionFrame>,
    );
    if (step !== REVIEW_ID) previousStep = step;
  });

  const paymentShown = paymentIndex >= 0 && visible[paymentIndex] === true;
  return (
    <>
      <PageShell
        config={config}
        inert={orderState.loading}
        languages={config.languages.length > 1 ? <LanguageSwitcher languages={config.languages} /> : null}
      >
        <div className="checkout">
          <OrderSummary pending={preview.pending} />
          <div className="checkout__main">
            {cart.order.gift_from ? <GiftFromNote from={cart.order.gift_from} /> : null}
            {paymentShown ? <ExpressCheckout /> : null}
            {preview.failed !== null ? (
              <p className="notice notice--warning" role="status">
                {t('checkout.totals_failed', {
                  reason: preview.failed || t('checkout.totals_unknown_reason'),
                })}
              </p>
            ) : null}
            <ol className="sections">{items}</ol>
          </div>
        </div>
      </PageShell>
      {orderState.loading ? <ProcessingOverlay /> : null}
    </>
  );
}
