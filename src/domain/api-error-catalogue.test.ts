import { describe, expect, it } from 'vitest';
import {
  authorizationErrorText,
  failureFromResponse,
  failureWithoutResponse,
  giftUpdateFailure,
  isAuthorizationRejection,
  isRetryableFailure,
  missingCredentialsFailure,
  rejectionErrorText,
  sayFailure,
  shopperMessageOf,
} from './api-error-catalogue.js';
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

describe('missingCredentialsFailure', () => {
  it("fails with 401 'No access token requested' when nothing is stored", () => {
    expect(missingCredentialsFailure(null)).toMatchObject({
      status: 401,
      message: 'No access token requested',
    });
  });

  it('fails with the stored authorization error when there is one', () => {
    expect(missingCredentialsFailure('This store could not be found.')).toMatchObject({
      status: 401,
      message: 'This store could not be found.',
    });
  });
});

describe('failureFromResponse', () => {
  it("keeps the answer's status, code, message and fields", () => {
    const failure = failureFromResponse(422, {
      status: 422,
      code: 'validation_failed',
      message: 'Check the highlighted fields.',
      fields: { bill_zipcode: 'Enter a ZIP code like 73301.' },
    });
    expect(failure).toEqual({
      status: 422,
      code: 'validation_failed',
      message: 'Check the highlighted fields.',
      fields: { bill_zipcode: 'Enter a ZIP code like 73301.' },
    });
  });

  it('reads Retry-After seconds', () => {
    expect(
      failureFromResponse(429, { code: 'too_many', message: 'Slow down.' }, '120').retryAfterSeconds,
    ).toBe(120);
  });

  it('gives a readable message when the answer has no data', () => {
    const failure = failureFromResponse(502, undefined);
    expect(failure.status).toBe(502);
    expect(failure.code).toBe('http_502');
    expect(failure.message).toMatch(/try again/);
  });
});

describe('failureWithoutResponse', () => {
  it('uses status 500 and keeps the raw error', () => {
    const failure = failureWithoutResponse(new TypeError('Failed to fetch'));
    expect(failure).toMatchObject({ status: 500, code: 'no_response', cause: 'Failed to fetch' });
  });
});

describe('authorization errors', () => {
  it('treats 401 and 403 as rejections that call for a fresh authorization', () => {
    expect(isAuthorizationRejection(401)).toBe(true);
    expect(isAuthorizationRejection(403)).toBe(true);
    expect(isAuthorizationRejection(404)).toBe(false);
  });

  it("stores the rejection's data, or 'Unauthorized' when there is none", () => {
    expect(rejectionErrorText({ message: 'The access token has expired.' })).toBe(
      'The access token has expired.',
    );
    expect(rejectionErrorText(undefined)).toBe('Unauthorized');
    expect(rejectionErrorText('')).toBe('Unauthorized');
  });

  it('stores an authorization failure without a response as text', () => {
    expect(authorizationErrorText({ raw: new Error('socket hang up') })).toBe('socket hang up');
  });

  it("stores 'No error data provided' when the authorization answer has no data", () => {
    expect(authorizationErrorText({ response: { status: 500, data: undefined } })).toBe(
      'No error data provided',
    );
  });

  it("stores the authorization answer's message", () => {
    expect(
      authorizationErrorText({
        response: { status: 404, data: { message: 'This store could not be found.' } },
      }),
    ).toBe('This store could not be found.');
  });
});

describe('shopperMessageOf', () => {
  it("never shows the catalogue's stand-ins raw: they become sentences that say what to do", () => {
    for (const standIn of ['No error data provided', 'Unauthorized', 'No access token requested']) {
      const words = shopperMessageOf(standIn, english);
      expect(words).not.toBe(standIn);
      expect(words).toMatch(/Try again/);
    }
  });

  it("keeps the store's own words", () => {
    expect(shopperMessageOf('This store could not be found.', spanish)).toBe(
      'This store could not be found.',
    );
  });

  it('says the page’s own words in the page’s language', () => {
    expect(shopperMessageOf('No access token requested', spanish)).toBe(
      'Este pago aún no ha comenzado. Inténtalo de nuevo o vuelve a cargar la página.',
    );
    expect(sayFailure(failureWithoutResponse(new TypeError('Failed to fetch')), spanish)).toMatchObject({
      code: 'no_response',
      message: 'No pudimos conectar con la tienda. Revisa tu conexión e inténtalo de nuevo.',
      cause: 'Failed to fetch',
    });
    expect(sayFailure(failureFromResponse(502, undefined), spanish).message).toBe(
      'Algo salió mal por nuestra parte. Inténtalo de nuevo.',
    );
    expect(sayFailure(failureFromResponse(404, ''), english).message).toBe(
      'We could not find this checkout. Check the link from the store.',
    );
    const answered = failureFromResponse(422, { message: 'Revisa el campo marcado.' });
    expect(sayFailure(answered, spanish)).toBe(answered);
  });
});

describe('giftUpdateFailure', () => {
  it("fails with 513 and the failed offers' messages one after another, each once", () => {
    const failure = giftUpdateFailure([
      { orderOfferId: 7, failure: failureFromResponse(422, { message: 'Enter the recipient email.' }) },
      { orderOfferId: 9, failure: failureFromResponse(422, { message: 'Choose a date from today on.' }) },
      { orderOfferId: 11, failure: failureFromResponse(422, { message: 'Enter the recipient email.' }) },
    ]);
    expect(failure.status).toBe(513);
    expect(failure.message).toBe('Enter the recipient email. Choose a date from today on.');
  });

  it('keys field errors like the form fields of each offer', () => {
    const failure = giftUpdateFailure([
      {
        orderOfferId: 7,
        failure: failureFromResponse(422, {
          message: 'Check the gift.',
          fields: { gift_email: 'Enter an email.' },
        }),
      },
    ]);
    expect(failure.fields).toEqual({ gift_email_7: 'Enter an email.' });
  });
});

describe('isRetryableFailure', () => {
  it('retries server errors and missing answers, not refusals', () => {
    expect(isRetryableFailure(failureWithoutResponse('offline'))).toBe(true);
    expect(isRetryableFailure(failureFromResponse(503, undefined))).toBe(true);
    expect(isRetryableFailure(failureFromResponse(402, { message: 'declined' }))).toBe(false);
    expect(isRetryableFailure(failureFromResponse(422, { message: 'fix' }))).toBe(false);
    expect(isRetryableFailure(giftUpdateFailure([]))).toBe(false);
  });
});
