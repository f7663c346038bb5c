import type { Stripe } from '@stripe/stripe-js';
import { describe, expect, it, vi } from 'vitest';
import type { CardFieldsState } from './card-processor.js';
import { brandOfStripe, createStripeProcessor } from './stripe-processor.js';
import { englishT } from '../../../testing/english-t.js';

const AUTHENTICATION_FAILED_MESSAGE = englishT('payment.bank_not_confirmed');
const STRIPE_UNAVAILABLE_MESSAGE = englishT('payment.card_form_unavailable');

// No network reaches Stripe here: a fake Stripe.js stands in, with the calls the adapter makes.

type Handler = (event: unknown) => void;

function fakeStripe(
  answers: {
    submit?: { error?: { message?: string } };
    createPaymentMethod?: { paymentMethod?: { id: string }; error?: { message?: string } };
    handleNextAction?: { paymentIntent?: { status: string }; error?: { message?: string } } | Error;
  } = {},
) {
  const handlers = new Map<string, Handler>();
  const element = {
    on: vi.fn((event: string, handler: Handler) => {
      handlers.set(event, handler);
      return element;
    }),
    mount: vi.fn(),
    focus: vi.fn(),
    destroy: vi.fn(),
  };
  const elements = {
    create: vi.fn(() => element),
    submit: vi.fn(async () => answers.submit ?? {}),
    update: vi.fn(async () => undefined),
  };
  const stripe = {
    elements: vi.fn(() => elements),
    createPaymentMethod: vi.fn(
      async () => answers.createPaymentMethod ?? { paymentMethod: { id: 'pm_123' } },
    ),
    handleNextAction: vi.fn(async () => {
      const answer = answers.handleNextAction ?? { paymentIntent: { status: 'succeeded' } };
      if (answer instanceof Error) throw answer;
      return answer;
    }),
  };
  const emit = (event: string, payload: unknown) => handlers.get(event)?.(payload);
  return { stripe, elements, element, emit, asStripe: stripe as unknown as Stripe };
}

async function mounted(fake: ReturnType<typeof fakeStripe>) {
  const states: CardFieldsState[] = [];
  const loadStripe = vi.fn(async () => fake.asStripe);
  const container = document.createElement('div');
  const fields = await createStripeProcessor({ publishable_key: 'pk_test_123' }, loadStripe).mount(
    container,
    {
      testCards: [],
      onChange: (state) => states.push(state),
      amount: 1800,
      currency: 'USD',
      storeForFuture: false,
      language: 'en',
      t: englishT,
    },
  );
  return { fields, states, loadStripe, container };
}

const cardChange = (complete: boolean, empty = false) => ({
  elementType: 'payment',
  complete,
  empty,
  collapsed: false,
  value: { type: 'card' },
});

describe('the Stripe adapter', () => {
  it('loads Stripe.js with the publishable key and mounts the Payment Element for the amount, making methods manually', async () => {
    const fake = fakeStripe();
    const { loadStripe, container } = await mounted(fake);
    expect(loadStripe).toHaveBeenCalledWith('pk_test_123');
    expect(fake.stripe.elements).toHaveBeenCalledWith(
      expect.objectContaining({
        mode: 'payment',
        amount: 1800,
        currency: 'usd',
        paymentMethodCreation: 'manual',
        locale: 'en',
        // Only what the server can check and record: cards, Apple Pay and Google Pay among them; never Link.
        allowedPaymentMethodTypes: ['card'],
      }),
    );
    expect(fake.elements.create).toHaveBeenCalledWith(
      'payment',
      expect.objectContaining({ wallets: { applePay: 'auto', googlePay: 'auto', link: 'never' } }),
    );
    expect(fake.element.mount).toHaveBeenCalledWith(container);
  });

  it("mounts in setup mode for a subscriber's new card: saved off-session, nothing charged", async () => {
    const fake = fakeStripe();
    await createStripeProcessor({ publishable_key: 'pk_test_123' }, async () => fake.asStripe).mount(
      document.createElement('div'),
      {
        testCards: [],
        onChange: () => undefined,
        purpose: 'setup',
        amount: 0,
        currency: 'USD',
        storeForFuture: true,
        language: 'en',
        t: englishT,
      },
    );
    expect(fake.stripe.elements).toHaveBeenCalledWith({
      mode: 'setup',
      currency: 'usd',
      paymentMethodCreation: 'manual',
      allowedPaymentMethodTypes: ['card'],
      setupFutureUsage: 'off_session',
      locale: 'en',
    });
  });

  it('fails to mount when Stripe.js cannot run', async () => {
    const processor = createStripeProcessor({ publishable_key: 'pk_test_123' }, async () => null);
    await expect(
      processor.mount(document.createElement('div'), {
        testCards: [],
        onChange: () => undefined,
        amount: 100,
        currency: 'USD',
        storeForFuture: false,
        language: 'en',
        t: englishT,
      }),
    ).rejects.toThrow(STRIPE_UNAVAILABLE_MESSAGE);
  });

  it("tells the page the element's completeness and the card's brand where Stripe says it", async () => {
    const fake = fakeStripe();
    const { states } = await mounted(fake);
    fake.emit('change', cardChange(false));
    expect(states.at(-1)).toEqual({ brand: null, complete: false, empty: false, error: null });
    fake.emit('carddetailschange', {
      elementType: 'payment',
      loading: false,
      details: { brands: ['visa'], funding: 'credit' },
    });
    expect(states.at(-1)).toMatchObject({ brand: 'visa' });
    fake.emit('change', cardChange(true));
    expect(states.at(-1)).toEqual({ brand: 'visa', complete: true, empty: false, error: null });
    fake.emit('carddetailschange', {
      elementType: 'payment',
      loading: false,
      details: { brands: ['jcb'], funding: null },
    });
    expect(states.at(-1)).toMatchObject({ brand: 'other' });
    fake.emit('carddetailschange', { elementType: 'payment', loading: false });
    expect(states.at(-1)).toMatchObject({ brand: null });
  });

  it('reports no brand for a wallet or Link, whose card Stripe keeps', async () => {
    const fake = fakeStripe();
    const { states } = await mounted(fake);
    fake.emit('carddetailschange', {
      elementType: 'payment',
      loading: false,
      details: { brands: ['amex'], funding: null },
    });
    fake.emit('change', { ...cardChange(true), value: { type: 'google_pay' } });
    expect(states.at(-1)).toEqual({ brand: null, complete: true, empty: false, error: null });
  });

  it('makes a PaymentMethod after the element checked its fields: the token is its id', async () => {
    const fake = fakeStripe();
    const { fields } = await mounted(fake);
    await expect(fields.tokenize()).resolves.toEqual({ ok: true, token: 'pm_123' });
    expect(fake.elements.submit).toHaveBeenCalledBefore(fake.stripe.createPaymentMethod);
    expect(fake.stripe.createPaymentMethod).toHaveBeenCalledWith({ elements: fake.elements });
  });

  it('says what the element refused, and makes no PaymentMethod then', async () => {
    const fake = fakeStripe({ submit: { error: { message: 'Your card number is incomplete.' } } });
    const { fields } = await mounted(fake);
    await expect(fields.tokenize()).resolves.toEqual({
      ok: false,
      message: 'Your card number is incomplete.',
    });
    expect(fake.stripe.createPaymentMethod).not.toHaveBeenCalled();
    const refused = fakeStripe({ createPaymentMethod: { error: { message: 'Your card was declined.' } } });
    await expect((await mounted(refused)).fields.tokenize()).resolves.toEqual({
      ok: false,
      message: 'Your card was declined.',
    });
  });

  it('authenticates with handleNextAction: settled PaymentIntents are ok, others fail with a message', async () => {
    for (const status of ['succeeded', 'requires_capture', 'processing']) {
      const fake = fakeStripe({ handleNextAction: { paymentIntent: { status } } });
      const { fields } = await mounted(fake);
      await expect(fields.authenticate({ type: 'stripe', client_secret: 'pi_1_secret_2' })).resolves.toEqual({
        ok: true,
      });
      expect(fake.stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_1_secret_2' });
    }
    const unconfirmed = fakeStripe({
      handleNextAction: { paymentIntent: { status: 'requires_payment_method' } },
    });
    await expect(
      (await mounted(unconfirmed)).fields.authenticate({ type: 'stripe', client_secret: 's' }),
    ).resolves.toEqual({ ok: false, message: AUTHENTICATION_FAILED_MESSAGE });
    const failed = fakeStripe({
      handleNextAction: { error: { message: 'We are unable to authenticate your payment method.' } },
    });
    await expect(
      (await mounted(failed)).fields.authenticate({ type: 'stripe', client_secret: 's' }),
    ).resolves.toEqual({
      ok: false,
      message: 'We are unable to authenticate your payment method.',
    });
    const thrown = fakeStripe({ handleNextAction: new Error('IntegrationError') });
    await expect(
      (await mounted(thrown)).fields.authenticate({ type: 'stripe', client_secret: 's' }),
    ).resolves.toEqual({
      ok: false,
      message: AUTHENTICATION_FAILED_MESSAGE,
    });
  });

  it("refuses another processor's action", async () => {
    const { fields } = await mounted(fakeStripe());
    await expect(fields.authenticate({ type: 'challenge', url: 'https://x.test/c' })).resolves.toMatchObject({
      ok: false,
    });
  });

  it("authenticates an upsell's payment with Stripe.js alone, no element mounted", async () => {
    const fake = fakeStripe();
    const loadStripe = vi.fn(async () => fake.asStripe);
    const processor = createStripeProcessor({ publishable_key: 'pk_test_123' }, loadStripe);
    await expect(
      processor.authenticate?.({ type: 'stripe', client_secret: 'pi_1_secret_2' }, englishT),
    ).resolves.toEqual({
      ok: true,
    });
    expect(loadStripe).toHaveBeenCalledWith('pk_test_123');
    expect(fake.stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_1_secret_2' });
    expect(fake.stripe.elements).not.toHaveBeenCalled();
    const failed = fakeStripe({ handleNextAction: { error: { message: 'Your bank said no.' } } });
    await expect(
      createStripeProcessor({ publishable_key: 'pk' }, async () => failed.asStripe).authenticate?.(
        {
          type: 'stripe',
          client_secret: 's',
        },
        englishT,
      ),
    ).resolves.toEqual({ ok: false, message: 'Your bank said no.' });
    await expect(
      createStripeProcessor({ publishable_key: 'pk' }, async () => null).authenticate?.(
        {
          type: 'stripe',
          client_secret: 's',
        },
        englishT,
      ),
    ).resolves.toEqual({ ok: false, message: STRIPE_UNAVAILABLE_MESSAGE });
  });

  it('focuses and takes down the element', async () => {
    const fake = fakeStripe();
    const { fields } = await mounted(fake);
    fields.focus();
    fields.destroy();
    expect(fake.element.focus).toHaveBeenCalled();
    expect(fake.element.destroy).toHaveBeenCalled();
  });
});

describe('brandOfStripe', () => {
  it("maps Stripe's brands onto ours", () => {
    expect(brandOfStripe(['visa'])).toBe('visa');
    expect(brandOfStripe(['mastercard'])).toBe('mastercard');
    expect(brandOfStripe(['discover'])).toBe('discover');
    expect(brandOfStripe(['amex'])).toBe('american-express');
    expect(brandOfStripe(['diners'])).toBe('other');
    expect(brandOfStripe(['unionpay'])).toBe('other');
    expect(brandOfStripe(['unknown'])).toBeNull();
    expect(brandOfStripe([])).toBeNull();
    expect(brandOfStripe(null)).toBeNull();
  });

  it('takes a co-badged card by the brand of ours it carries', () => {
    expect(brandOfStripe(['cartes_bancaires', 'visa'])).toBe('visa');
  });
});

describe('the total and the subscription after mounting', () => {
  it('tells the element a new total, and asks wallets for a reusable card once the order recurs', async () => {
    const fake = fakeStripe();
    const { fields } = await mounted(fake);
    expect(fake.stripe.elements).toHaveBeenCalledWith(
      expect.not.objectContaining({ setupFutureUsage: expect.anything() }),
    );
    fields.update?.({ amount: 1620, currency: 'USD', storeForFuture: true });
    expect(fake.elements.update).toHaveBeenCalledWith({
      amount: 1620,
      currency: 'usd',
      setupFutureUsage: 'off_session',
    });
    fields.update?.({ amount: 1800, currency: 'USD', storeForFuture: false });
    expect(fake.elements.update).toHaveBeenLastCalledWith({
      amount: 1800,
      currency: 'usd',
      setupFutureUsage: null,
    });
  });
});

describe("the page's language after mounting", () => {
  it("turns Stripe's labels and errors to the switcher's language in place, without a new element", async () => {
    const fake = fakeStripe();
    const { fields } = await mounted(fake);
    fields.setLanguage?.('es');
    expect(fake.elements.update).toHaveBeenCalledWith({ locale: 'es' });
    expect(fake.elements.create).toHaveBeenCalledTimes(1);
    expect(fake.element.destroy).not.toHaveBeenCalled();
  });
});
