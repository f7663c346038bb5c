import { afterEach, describe, expect, it } from 'vitest';
import type { ChargeRequest } from './gateway.js';
import { cardCharge, setup, verifyReplays } from './testing/paypal-replay.js';

// The PayPal adapter against recorded PayPal exchanges: charges (cards, vaulted wallets and cards) and refunds.

afterEach(verifyReplays);

function rebill(token: string, idempotencyKey: string, cycle: number): ChargeRequest {
  return {
    amount: 1900,
    currency: 'USD',
    source: { kind: 'token', token },
    storeForFuture: true,
    idempotencyKey,
    description: `Coffee Club subscription, cycle ${cycle}`,
    testCard: false,
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

  it('charges a card and answers the capture id', async () => {
    const { gateway } = setup(['token', 'card-charge-approved']);
    expect(await gateway.charge(cardCharge())).toEqual({
      status: 'approved',
      reference: '2WB02631FY659550C',
      paymentMethodToken: null,
    });
  });

  it('vaults a card for a subscription and answers a card token for the rebills', async () => {
    const { gateway } = setup(['token', 'card-charge-approved-vaulted']);
    const result = await gateway.charge(
      cardCharge({
        amount: 1900,
        storeForFuture: true,
        idempotencyKey: 'order-ord_9e2-attempt-1',
        description: 'Coffee Club subscription',
      }),
    );
    expect(result).toEqual({
      status: 'approved',
      reference: '5XK10291SL5582733',
      paymentMethodToken: 'card:9pf17493xb1108442',
    });
  });

  it('declines a card the issuer refused for insufficient funds', async () => {
    const { gateway } = setup(['token', 'card-charge-declined-insufficient-funds']);
    const result = await gateway.charge(
      cardCharge({
        source: {
          kind: 'card',
          card: { number: '5555555555554444', cvv: '321', expMonth: 1, expYear: 2029 },
          summary: { brand: 'mastercard', typeId: 1, last4: '4444', expMonth: 1, expYear: 2029 },
        },
        idempotencyKey: 'order-ord_4c7-attempt-1',
      }),
    );
    expect(result).toEqual({
      status: 'declined',
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds. Try another card or PayPal.',
      reference: '33U97269RT3112322',
    });
  });

  it('declines a card PayPal says has expired', async () => {
    const { gateway } = setup(['token', 'card-charge-card-expired']);
    const result = await gateway.charge(
      cardCharge({
        source: {
          kind: 'card',
          card: { number: '4111111111111111', cvv: '123', expMonth: 11, expYear: 2026 },
          summary: { brand: 'visa', typeId: 2, last4: '1111', expMonth: 11, expYear: 2026 },
        },
        idempotencyKey: 'order-ord_5f3-attempt-1',
      }),
    );
    expect(result).toMatchObject({ status: 'declined', code: 'expired_card', reference: null });
  });

  it("never sends an organization's test card to PayPal", async () => {
    const { gateway, recording } = setup([]);
    const result = await gateway.charge(cardCharge({ testCard: true }));
    expect(result).toMatchObject({ status: 'declined', code: 'card_declined' });
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
});
