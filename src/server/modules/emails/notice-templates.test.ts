import { describe, expect, it } from 'vitest';
import { giftNoticeRunAt } from './gift-enqueue.js';
import {
  giftItems,
  leftPaid,
  renderGiftClaimed,
  renderGiftNotice,
  renderRefundConfirmation,
} from './notice-templates.js';

const STORE = { name: 'Bean There', logoUrl: null };
const HOSTILE = '<script>alert("x")</script> & co';

describe('the gift notice', () => {
  const notice = {
    store: STORE,
    from: 'Ada Lovelace',
    message: 'Happy holidays!\nEnjoy.',
    recipientName: 'Grace Hopper',
    item: { name: 'Stoneware mug', quantity: 1 },
    claimUrl: 'https://shop.example/checkout/__g__abcDEF123',
  };

  it('says who it is from, what it is, their message and the claim link, in HTML and text', () => {
    const email = renderGiftNotice(notice);
    expect(email.subject).toBe('Ada Lovelace sent you a gift from Bean There');
    expect(email.text).toContain('Hello Grace Hopper,');
    expect(email.text).toContain('Ada Lovelace sent you a gift: Stoneware mug.');
    expect(email.text).toContain('Happy holidays!\nEnjoy.');
    expect(email.text).toContain('https://shop.example/checkout/__g__abcDEF123');
    expect(email.html).toContain('<a href="https://shop.example/checkout/__g__abcDEF123"');
    expect(email.html).toContain('Happy holidays!<br/>Enjoy.');
    expect(email.html).toContain('<strong>Stoneware mug</strong>');
  });

  it('escapes every string the merchant, giver or recipient wrote, and keeps the subject on one line', () => {
    const email = renderGiftNotice({
      ...notice,
      store: { name: HOSTILE, logoUrl: 'https://cdn.example/logo.png?a=1&b="2"' },
      from: `${HOSTILE}\r\nBcc: x@evil.example`,
      message: HOSTILE,
      recipientName: HOSTILE,
      item: { name: HOSTILE, quantity: 2 },
    });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
    expect(email.html).toContain('src="https://cdn.example/logo.png?a=1&amp;b=&quot;2&quot;"');
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.text).toContain(`2 x ${HOSTILE}`);
  });

  it('leaves out a message never written, and names no one when the giver has no name', () => {
    const email = renderGiftNotice({ ...notice, from: ' ', message: '  ', recipientName: '' });
    expect(email.subject).toBe('Someone sent you a gift from Bean There');
    expect(email.text).not.toContain('Their message');
    expect(email.html).not.toContain('<blockquote');
    expect(email.text).toContain('Hello,');
  });

  it('shows a logo only when it is a web address', () => {
    expect(
      renderGiftNotice({ ...notice, store: { ...STORE, logoUrl: 'javascript:alert(1)' } }).html,
    ).not.toContain('<img');
    expect(
      renderGiftNotice({ ...notice, store: { ...STORE, logoUrl: 'https://cdn.example/l.png' } }).html,
    ).toContain('<img src="https://cdn.example/l.png"');
  });
});

describe("the giver's note", () => {
  it('says the recipient claimed the gift, escaped', () => {
    const email = renderGiftClaimed({
      store: STORE,
      recipientName: 'Grace <b>Hopper</b>',
      item: { name: 'Mug', quantity: 1 },
      orderId: 1042,
    });
    expect(email.subject).toBe('Grace <b>Hopper</b> claimed your gift from Bean There');
    expect(email.text).toContain('Grace <b>Hopper</b> claimed your gift: Mug (order #1042).');
    expect(email.html).toContain('Grace &lt;b&gt;Hopper&lt;/b&gt; claimed your gift: Mug (order #1042).');
    expect(email.html).not.toContain('<b>Hopper');
  });

  it('says "the recipient" when the giver left no name', () => {
    const email = renderGiftClaimed({
      store: STORE,
      recipientName: '',
      item: { name: 'Mug', quantity: 3 },
      orderId: 7,
    });
    expect(email.text).toContain('The recipient claimed your gift: 3 x Mug (order #7).');
  });
});

describe('the refund confirmation', () => {
  const refund = { store: STORE, orderId: 1042, currency: 'USD', amount: 1250, paid: 5964, refunded: 1250 };

  it('says the amount refunded, the order and what is left paid, in the store currency', () => {
    const email = renderRefundConfirmation(refund);
    expect(email.subject).toBe('Your refund of $12.50 from Bean There');
    for (const body of [email.text, email.html]) {
      expect(body).toContain('We refunded $12.50 of your order #1042.');
      expect(body).toContain('$47.14 of the $59.64 you paid remains paid.');
    }
  });

  it('says a full refund is full, and formats currencies without minor units', () => {
    const full = renderRefundConfirmation({ ...refund, amount: 4714, refunded: 5964 });
    expect(full.text).toContain('Your order is now refunded in full.');
    const yen = renderRefundConfirmation({
      ...refund,
      currency: 'JPY',
      amount: 500,
      paid: 3000,
      refunded: 500,
    });
    expect(yen.text).toContain('We refunded ¥500 of your order #1042.');
    expect(yen.text).toContain('¥2,500 of the ¥3,000 you paid remains paid.');
  });

  it('escapes the store name', () => {
    const email = renderRefundConfirmation({ ...refund, store: { name: HOSTILE, logoUrl: null } });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;');
  });

  it('never says less than nothing is left', () => {
    expect(leftPaid({ paid: 1000, refunded: 1200 })).toBe(0);
    expect(leftPaid({ paid: 1000, refunded: 250 })).toBe(750);
  });
});

describe('giftItems', () => {
  it('counts more than one', () => {
    expect(giftItems({ name: 'Mug', quantity: 1 })).toBe('Mug');
    expect(giftItems({ name: 'Mug\n', quantity: 2 })).toBe('2 x Mug');
  });
});

describe('giftNoticeRunAt', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');

  it('sends on the start of the gift day in UTC', () => {
    expect(giftNoticeRunAt('2026-11-24', now)).toEqual(new Date('2026-11-24T00:00:00.000Z'));
  });

  it('sends now for today, a past date, no date or a date it cannot read', () => {
    for (const date of ['2026-11-21', '2025-01-01', null, 'soon', '2026-13-45']) {
      expect(giftNoticeRunAt(date, now)).toEqual(now);
    }
  });
});
