import { describe, expect, it } from 'vitest';
import { failureFromResponse, failureWithoutResponse } from './api-error-catalogue.js';
import {
  classifyOrderFailure,
  orderRequestFor,
  rateLimitedMessage,
  paymentChoiceFor,
  shouldKeepIdempotencyKey,
} from './order-attempt.js';
import { setupPageI18n } from '../i18n/page-i18n.js';
import englishCatalogue from 'virtual:catalogue/all/en';
import spanishCatalogue from 'virtual:catalogue/all/es';
import type { Say } from './api-error-catalogue.js';

/** The page's t() in a language, from every catalogue as the page compiles them. */
function sayIn(locale: 'en' | 'es', messages: typeof englishCatalogue): Say {
  const i18n = setupPageI18n({ locale, messages: { [locale]: messages } });
  return (key, values) => i18n._(key, values);
}
const english = sayIn('en', englishCatalogue);
const spanish = sayIn('es', spanishCatalogue);

const answered = (status: number) => failureFromResponse(status, { message: 'x' });

describe('classifyOrderFailure', () => {
  it('tells each answer apart', () => {
    expect(classifyOrderFailure(answered(402))).toBe('declined');
    expect(classifyOrderFailure(answered(422))).toBe('invalid');
    expect(classifyOrderFailure(answered(409))).toBe('already_complete');
    expect(classifyOrderFailure(answered(429))).toBe('rate_limited');
    expect(classifyOrderFailure(answered(401))).toBe('not_authorized');
    expect(classifyOrderFailure(answered(503))).toBe('retryable');
    expect(classifyOrderFailure(failureWithoutResponse('offline'))).toBe('retryable');
    expect(classifyOrderFailure(answered(404))).toBe('refused');
  });
});

describe('shouldKeepIdempotencyKey', () => {
  it('retries a failure without an answer with the same key', () => {
    expect(shouldKeepIdempotencyKey('retryable')).toBe(true);
  });

  it('starts a new attempt after a decline or invalid fields', () => {
    expect(shouldKeepIdempotencyKey('declined')).toBe(false);
    expect(shouldKeepIdempotencyKey('invalid')).toBe(false);
  });
});

describe('rateLimitedMessage', () => {
  it("says the store's own refusal once: it already says how long to wait", () => {
    const message =
      'Too many payment attempts were declined. For your security, payment is paused; please try again in 40 minutes.';
    expect(
      rateLimitedMessage(
        { status: 429, code: 'too_many_failed_payments', message, retryAfterSeconds: 2400 },
        english,
      ),
    ).toBe(message);
  });

  it('adds the wait to a refusal from something on the way, from its Retry-After', () => {
    expect(
      rateLimitedMessage(
        {
          status: 429,
          code: 'rate_limited',
          message: 'Too many attempts.',
          retryAfterSeconds: 90,
        },
        english,
      ),
    ).toBe('Too many attempts. Try again in 2 minutes.');
    expect(
      rateLimitedMessage(
        {
          status: 429,
          code: 'rate_limited',
          message: 'Too many attempts.',
          retryAfterSeconds: 60,
        },
        english,
      ),
    ).toBe('Too many attempts. Try again in 1 minute.');
    expect(
      rateLimitedMessage(
        { status: 429, code: 'rate_limited', message: 'Demasiados intentos.', retryAfterSeconds: 45 },
        spanish,
      ),
    ).toBe('Demasiados intentos. Vuelve a intentarlo en 45 segundos.');
    expect(
      rateLimitedMessage({ status: 429, code: 'rate_limited', message: 'Too many attempts.' }, english),
    ).toBe('Too many attempts.');
  });
});

describe('orderRequestFor', () => {
  it('creates the order first and updates it after a decline', () => {
    expect(orderRequestFor(null)).toEqual({ method: 'POST', path: 'orders' });
    expect(orderRequestFor(42)).toEqual({ method: 'PUT', path: 'orders/42' });
  });
});

describe('paymentChoiceFor', () => {
  it('pays nothing for a free one-off order', () => {
    expect(paymentChoiceFor({ total: 0, isRecurring: false, expressPaymentTokenId: null })).toBe('none');
  });

  it('pays by PayPal once an express payment is approved, else by card', () => {
    expect(paymentChoiceFor({ total: 10, isRecurring: false, expressPaymentTokenId: 'pt_1' })).toBe('paypal');
    expect(paymentChoiceFor({ total: 10, isRecurring: false, expressPaymentTokenId: null })).toBe('card');
    expect(paymentChoiceFor({ total: 0, isRecurring: true, expressPaymentTokenId: null })).toBe('card');
  });
});
