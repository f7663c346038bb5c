import { describe, expect, it } from 'vitest';
import { declineForIssues, declineForProcessorCode, unprocessableDecline } from './paypal-decline.js';

describe('declineForProcessorCode', () => {
  it('names insufficient funds, an expired card and a wrong CVV', () => {
    expect(declineForProcessorCode('5120').code).toBe('insufficient_funds');
    expect(declineForProcessorCode('5400').code).toBe('expired_card');
    expect(declineForProcessorCode('00N7').code).toBe('incorrect_cvc');
  });

  it('answers any other issuer refusal as a plain card decline, revealing no fraud or lost-card reason', () => {
    for (const code of ['0500', '9500', '9520', '5100', undefined]) {
      expect(declineForProcessorCode(code)).toEqual({
        code: 'card_declined',
        message: 'Your card was declined. Try another card or PayPal.',
      });
    }
  });
});

describe('declineForIssues', () => {
  it('declines an instrument PayPal refused, in the words of what paid', () => {
    expect(declineForIssues(['INSTRUMENT_DECLINED'], [], 'paypal')?.code).toBe('payment_declined');
    expect(declineForIssues(['INSTRUMENT_DECLINED'], [], 'card')?.code).toBe('card_declined');
  });

  it('asks the payer to go back to PayPal when PayPal needs their action or approval', () => {
    expect(declineForIssues(['PAYER_ACTION_REQUIRED'], [], 'paypal')?.message).toMatch(/Choose PayPal again/);
    expect(declineForIssues(['ORDER_NOT_APPROVED'], [], 'paypal')?.message).toMatch(/Choose PayPal again/);
  });

  it('asks for a new PayPal approval when the PayPal order expired or is unknown, but not for a card', () => {
    expect(declineForIssues(['INVALID_RESOURCE_ID'], [], 'paypal')?.message).toMatch(/has expired/);
    expect(declineForIssues(['INVALID_RESOURCE_ID'], [], 'card')).toBeNull();
  });

  it('names an expired card', () => {
    expect(declineForIssues(['CARD_EXPIRED'], ['/payment_source/card/expiry'], 'card')?.code).toBe(
      'expired_card',
    );
  });

  it('asks to check the card details when PayPal rejected a card field', () => {
    expect(
      declineForIssues(['INVALID_PARAMETER_VALUE'], ['/payment_source/card/number'], 'card')?.message,
    ).toMatch(/Check the card number/);
  });

  it('is null for problems that are not about the payer', () => {
    expect(declineForIssues(['CURRENCY_NOT_SUPPORTED'], ['/purchase_units/0/amount'], 'card')).toBeNull();
    expect(declineForIssues(['PERMISSION_DENIED'], [], 'paypal')).toBeNull();
  });
});

describe('unprocessableDecline', () => {
  it('tells the shopper to pay another way', () => {
    expect(unprocessableDecline('card').message).toMatch(/Try another card or PayPal/);
    expect(unprocessableDecline('paypal').message).toMatch(/pay by card/);
  });
});
