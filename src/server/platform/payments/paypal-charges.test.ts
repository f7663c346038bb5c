import { afterEach, describe, expect, it } from 'vitest';
import type { ChargeRequest } from './gateway.js';
import { cardCharge, setup, verifyReplays } from './testing/paypal-replay.js';

// The PayPal adapter against recorded PayPal exchanges: charges (cards, vaulted wallets and cards) and refunds.

afterEach(verifyReplays);

function rebill(token: string, idempotencyKey: string, cycle: number): ChargeRequest {
  return {
    amount: 1900,
    currency: 'USD',
    source: { kind: 'stored', token, customerReference: null },
    storeForFuture: true,
    idempotencyKey,
    description: `Coffee Club subscription, cycle ${cycle}`,
  };
}

describe('PayPal charges', () => {
  it('rebills a vaulted PayPal wallet with its vault id and keeps the token', async () => {
    const { gateway } = setup(['token', 'rebill-paypal-vault-approved']);
    expect(await gateway.charge(rebill('8kd35871xs1437519', 'rebill-sub-42-cycle-2', 2))).toEqual({
      status: 'approved',
      reference: '2GG279541U471931P',
      paymentMethodToken: '8kd35871xs1437519',
    });
  });

  it('declines a rebill whose wallet funding failed', async () => {
    const { gateway } = setup(['token', 'rebill-paypal-vault-declined']);
    expect(await gateway.charge(rebill('8kd35871xs1437519', 'rebill-sub-42-cycle-3', 3))).toMatchObject({
      status: 'declined',
      code: 'payment_declined',
    });
  });

  it('rebills a card vaulted at PayPal as a merchant-initiated recurring payment', async () => {
    const { gateway } = setup(['token', 'rebill-card-vault-approved']);
    expect(await gateway.charge(rebill('card:9pf17493xb1108442', 'rebill-sub-77-cycle-2', 2))).toEqual({
      status: 'approved',
      reference: '6DR965477U7140544',
      paymentMethodToken: 'card:9pf17493xb1108442',
    });
  });

  it('takes no card token and calls nothing: cards typed on the page go to the card processor', async () => {
    const { gateway, recording } = setup([]);
    for (const source of [
      { kind: 'card_token' as const, token: 'tok_test_abc' },
      { kind: 'authenticated' as const, reference: 'ch_test_abc' },
    ]) {
      expect(await gateway.charge(cardCharge({ source }))).toMatchObject({
        status: 'declined',
        code: 'payment_declined',
      });
    }
    expect(recording.sent).toEqual([]);
  });
});

describe('PayPal refunds', () => {
  it('refunds a capture and answers the refund id', async () => {
    const { gateway } = setup(['token', 'refund-completed']);
    expect(
      await gateway.refund({
        reference: '3C679366HH908993F',
        amount: 5498,
        currency: 'USD',
        idempotencyKey: 'refund-ord_8d1-1',
      }),
    ).toEqual({ status: 'refunded', reference: '1JU08902781691411' });
  });

  it('says so when the payment was already refunded in full', async () => {
    const { gateway } = setup(['token', 'refund-already-refunded']);
    expect(
      await gateway.refund({
        reference: '3C679366HH908993F',
        amount: 5498,
        currency: 'USD',
        idempotencyKey: 'refund-ord_8d1-2',
      }),
    ).toEqual({ status: 'error', message: 'This payment has already been refunded in full.' });
  });

  it('answers a refund PayPal never answered as retryable: it may have made it', async () => {
    const { gateway } = setup([
      'token',
      { method: 'POST', path: '/v2/payments/captures/3C679366HH908993F/refund', fail: 'network' },
    ]);
    expect(
      await gateway.refund({
        reference: '3C679366HH908993F',
        amount: 5498,
        currency: 'USD',
        idempotencyKey: 'refund-ord_8d1-3',
      }),
    ).toEqual({ status: 'error', message: 'PayPal did not answer. Try the refund again.', retryable: true });
  });
});
