import { describe, expect, it } from 'vitest';
import {
  afterFailedPaymentSentence,
  chargeDate,
  everyInterval,
  renderChargeReminder,
  renderFailedPayment,
  renderRenewalReceipt,
  renderStatusChange,
  renderSubscriberChange,
  renderSubscriptionWelcome,
  subscribedItems,
  type SubscriptionEmailBase,
} from './subscription-templates.js';

const HOSTILE = '<script>alert("x")</script> & co';
const MANAGE_URL = 'https://shop.example/checkout/manage/eyJhbGciOi.abc.def';

function base(overrides: Partial<SubscriptionEmailBase> = {}): SubscriptionEmailBase {
  return {
    store: { name: 'Bean There', logoUrl: null },
    subscription: {
      id: 42,
      itemName: 'Coffee club',
      quantity: 1,
      currency: 'USD',
      intervalDays: 30,
      isTest: false,
    },
    manage: { url: MANAGE_URL, expiresAt: new Date('2026-12-21T12:00:00.000Z') },
    ...overrides,
  };
}

const NEXT = new Date('2026-12-21T12:00:00.000Z');

describe('the welcome', () => {
  it('says a prepaid plan that ends is paid for, and that nothing more will be charged', () => {
    const email = renderSubscriptionWelcome({
      ...base(),
      cycleAmount: 0,
      nextChargeAt: NEXT,
      paidInFull: 'Your 3 months are paid for, shipped monthly.',
    });
    expect(email.text).toContain(
      'Your 3 months are paid for, shipped monthly. Nothing more will be charged.',
    );
    expect(email.text).not.toContain('You will be charged');
  });

  it('says how a plan priced by cycle charges after the trial, and when it ends', () => {
    const email = renderSubscriptionWelcome({
      ...base(),
      cycleAmount: 2364,
      nextChargeAt: NEXT,
      laterCycles:
        '$23.64 every 30 days for 2 payments, then $34.46 every 30 days for 2 payments; 5 payments in all, the first included',
    });
    expect(email.text).toContain(
      'You will be charged $23.64 every 30 days for 2 payments, then $34.46 every 30 days for 2 payments; 5 payments in all, the first included, starting on December 21, 2026.',
    );
    expect(email.text).not.toContain('until you cancel');
  });

  it('says what was subscribed to, what each cycle costs, how often and from when, with the link', () => {
    const email = renderSubscriptionWelcome({ ...base(), cycleAmount: 2706, nextChargeAt: NEXT });
    expect(email.subject).toBe('Your Coffee club subscription at Bean There');
    expect(email.text).toBe(
      [
        'Bean There',
        '',
        'Thank you for subscribing to Coffee club.',
        '',
        'You will be charged $27.06 every 30 days, starting on December 21, 2026, until you cancel.',
        '',
        'You can pause or cancel your subscription, or update your card, at any time:',
        '',
        'Manage your subscription:',
        MANAGE_URL,
        '',
        'This link opens your subscription until December 21, 2026.',
        '',
        'Subscription #42 at Bean There',
        '',
      ].join('\n'),
    );
    expect(email.html).toContain(`<a href="${MANAGE_URL}"`);
    expect(email.html).toContain('You will be charged $27.06 every 30 days, starting on December 21, 2026');
  });
});

describe('the renewal receipt', () => {
  it('gives the amount, the cycle, the card by brand and last four, and the next charge date', () => {
    const email = renderRenewalReceipt({
      ...base(),
      cycle: 2,
      amount: 2706,
      payment: { method: 'card', brand: 'Visa', last4: '4242' },
      nextChargeAt: NEXT,
    });
    expect(email.subject).toBe('Receipt for your Coffee club renewal at Bean There');
    for (const body of [email.text, email.html]) {
      expect(body).toContain('Your subscription to Coffee club was renewed: cycle 2.');
      expect(body).toContain('Charged: $27.06. Paid with Visa ending in 4242.');
      expect(body).toContain('Your next charge is on December 21, 2026.');
      expect(body).toContain(MANAGE_URL);
    }
  });

  it('formats the amount in the subscription currency, and says nothing of a card it does not know', () => {
    const yen = renderRenewalReceipt({
      ...base({ subscription: { ...base().subscription, currency: 'JPY', quantity: 2 } }),
      cycle: 3,
      amount: 3000,
      payment: { method: 'card', brand: null, last4: null },
      nextChargeAt: NEXT,
    });
    expect(yen.text).toContain('Your subscription to 2 x Coffee club was renewed: cycle 3.');
    expect(yen.text).toContain('Charged: ¥3,000. Paid with Card.');
  });
});

describe('the failed payment', () => {
  it('puts the update-card link first, as a prominent button, then the next retry date', () => {
    const email = renderFailedPayment({ ...base(), amount: 2706, next: { kind: 'retry', at: NEXT } });
    expect(email.subject).toBe('Action needed: your Coffee club payment at Bean There failed');
    expect(email.text).toContain(
      [
        'We could not charge $27.06 for your subscription to Coffee club.',
        '',
        'Update your card:',
        MANAGE_URL,
        '',
        'We will try again on December 21, 2026. Update your card before then to keep your subscription.',
      ].join('\n'),
    );
    expect(email.html).toMatch(
      new RegExp(
        `<a href="${MANAGE_URL.replace(/\./g, '\\.')}" style="[^"]*font-weight:bold[^"]*">Update your card</a>`,
      ),
    );
    // One call to act: no second, quieter button.
    expect(email.text).not.toContain('Manage your subscription');
  });

  it("says where the organization's dunning ended the subscription", () => {
    expect(afterFailedPaymentSentence({ kind: 'past_due' })).toBe(
      'Your subscription is now past due: we will not try again on our own. Update your card to continue it.',
    );
    expect(afterFailedPaymentSentence({ kind: 'paused' })).toContain('Your subscription is now paused');
    const cancelled = renderFailedPayment({ ...base(), amount: 2706, next: { kind: 'cancelled' } });
    expect(cancelled.text).toContain('Your subscription is now cancelled: nothing more will be charged.');
    expect(cancelled.text).toContain(`See your subscription:\n${MANAGE_URL}`);
  });
});

describe('the confirmations', () => {
  const change = (kind: 'paused' | 'resumed' | 'cancelled') =>
    renderStatusChange({ ...base(), change: kind, cycleAmount: 2500, nextChargeAt: NEXT });

  it('confirms a pause, a resume with the next charge, and a cancellation, each with the link', () => {
    expect(change('paused').subject).toBe('Your Coffee club subscription at Bean There is paused');
    expect(change('paused').text).toContain('Nothing will be charged until it is resumed.');
    expect(change('resumed').subject).toBe('Your Coffee club subscription at Bean There is active again');
    expect(change('resumed').text).toContain('Your next charge of $25.00 is on December 21, 2026.');
    expect(change('cancelled').subject).toBe('Your Coffee club subscription at Bean There is cancelled');
    expect(change('cancelled').text).toContain('Nothing more will be charged.');
    for (const kind of ['paused', 'resumed', 'cancelled'] as const) {
      expect(change(kind).text).toContain(`Manage your subscription:\n${MANAGE_URL}`);
      expect(change(kind).html).toContain(`href="${MANAGE_URL}"`);
    }
  });
});

describe('the upcoming-charge reminder', () => {
  it('says the date and the amount of the coming charge', () => {
    const email = renderChargeReminder({ ...base(), cycleAmount: 2706, nextChargeAt: NEXT });
    expect(email.subject).toBe('Your Coffee club subscription at Bean There renews on December 21, 2026');
    expect(email.text).toContain(
      'Your subscription to Coffee club renews on December 21, 2026: we will charge $27.06.',
    );
    expect(email.text).toContain(MANAGE_URL);
  });
});

describe('every subscription email', () => {
  const all = (input: SubscriptionEmailBase) => [
    renderSubscriptionWelcome({ ...input, cycleAmount: 100, nextChargeAt: NEXT }),
    renderRenewalReceipt({
      ...input,
      cycle: 2,
      amount: 100,
      payment: { method: 'card', brand: HOSTILE, last4: '4242' },
      nextChargeAt: NEXT,
    }),
    renderFailedPayment({ ...input, amount: 100, next: { kind: 'retry', at: NEXT } }),
    renderStatusChange({ ...input, change: 'paused', cycleAmount: 100, nextChargeAt: NEXT }),
    renderChargeReminder({ ...input, cycleAmount: 100, nextChargeAt: NEXT }),
  ];

  it('escapes what the merchant wrote, keeps the subject on one line, and shows only a web logo', () => {
    const hostile = base({
      store: { name: `${HOSTILE}\r\nBcc: x@evil.example`, logoUrl: 'https://cdn.example/l.png?a=1&b="2"' },
      subscription: { ...base().subscription, itemName: HOSTILE },
      manage: { url: 'https://shop.example/checkout/manage/a"b<c>', expiresAt: NEXT },
    });
    for (const email of all(hostile)) {
      expect(email.html).not.toContain('<script>');
      expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
      expect(email.html).toContain('src="https://cdn.example/l.png?a=1&amp;b=&quot;2&quot;"');
      expect(email.html).toContain('href="https://shop.example/checkout/manage/a&quot;b&lt;c&gt;"');
      expect(email.subject).not.toMatch(/[\r\n]/);
    }
    for (const email of all(base({ store: { name: 'S', logoUrl: 'javascript:alert(1)' } })))
      expect(email.html).not.toContain('<img');
  });

  it('says a test subscription charges nothing', () => {
    const test = base({ subscription: { ...base().subscription, isTest: true } });
    for (const email of all(test)) {
      expect(email.text).toContain('This is a test subscription: nothing is really charged.');
      expect(email.html).toContain('This is a test subscription: nothing is really charged.');
    }
    for (const email of all(base())) expect(email.text).not.toContain('test subscription');
  });
});

describe('the wording helpers', () => {
  it('tells dates in UTC, intervals and quantities', () => {
    expect(chargeDate(new Date('2026-12-31T23:30:00.000Z'))).toBe('December 31, 2026');
    expect(everyInterval(1)).toBe('every day');
    expect(everyInterval(7)).toBe('every 7 days');
    expect(subscribedItems({ itemName: 'Club\n', quantity: 1 })).toBe('Club');
    expect(subscribedItems({ itemName: 'Club', quantity: 3 })).toBe('3 x Club');
  });
});

describe("the confirmations of a subscriber's own changes", () => {
  const input = {
    ...base(),
    cycleAmount: 2706,
    nextChargeAt: NEXT,
    endsAt: NEXT,
    payment: { method: 'card' as const, brand: 'mastercard', last4: '4444' },
  };

  it('says when a cancelled subscription ends, that nothing more is charged, and how to keep it', () => {
    const email = renderSubscriberChange('cancel_scheduled', input);
    expect(email.subject).toBe(`Your Coffee club subscription at Bean There ends on ${chargeDate(NEXT)}`);
    expect(email.text).toContain('Nothing more will be charged.');
    expect(email.text).toContain('Resume it from your subscription page before then.');
    expect(email.text).toContain(MANAGE_URL);
  });

  it('gives the next charge after a skip, and the new card by brand and last four only', () => {
    expect(renderSubscriberChange('skipped', input).text).toContain(
      `Your next charge of $27.06 is now on ${chargeDate(NEXT)}.`,
    );
    const card = renderSubscriberChange('card_updated', input);
    expect(card.subject).toBe('The card for your Coffee club subscription at Bean There was changed');
    expect(card.text).toMatch(/Mastercard ending in 4444/);
    expect(card.text).toContain('If you did not make this change, contact Bean There at once.');
  });

  it('escapes what the merchant wrote', () => {
    const email = renderSubscriberChange('skipped', { ...input, store: { name: HOSTILE, logoUrl: null } });
    expect(email.html).not.toContain('<script>');
  });
});
