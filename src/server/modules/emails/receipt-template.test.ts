import { describe, expect, it } from 'vitest';
import {
  paymentSummary,
  receiptTotals,
  renderOrderReceipt,
  renderReceiptHtml,
  renderReceiptText,
  type ReceiptInput,
} from './receipt-template.js';
import { speechFor } from './email-language.js';

const ADDRESS = {
  fname: 'Ada',
  lname: 'Lovelace',
  address1: '1 Congress Ave',
  address2: '',
  city: 'Austin',
  state: 'TX',
  zipcode: '73301',
  country: 'US',
};

function receipt(overrides: Partial<ReceiptInput> = {}): ReceiptInput {
  return {
    store: { name: 'Bean There', logoUrl: null },
    order: {
      id: 1042,
      currency: 'USD',
      isTest: false,
      subtotal: 5000,
      discount: 0,
      discountCode: null,
      shipping: 700,
      tax: 264,
      giftCards: 0,
      total: 5964,
    },
    lines: [
      { name: 'Coffee beans', quantity: 2, amount: 3600, isRecurring: false },
      { name: 'Stoneware mug', quantity: 1, amount: 1400, isRecurring: true },
    ],
    shippingAddress: ADDRESS,
    billingAddress: ADDRESS,
    payment: { method: 'card', brand: 'Visa', last4: '1111' },
    ...overrides,
  };
}

describe('renderOrderReceipt', () => {
  it('names the store and the order in the subject', () => {
    expect(renderOrderReceipt(receipt()).subject).toBe('Your Bean There order #1042');
  });

  it('writes the lines, amounts in the currency, payment and addresses in the text', () => {
    expect(renderReceiptText(receipt())).toBe(
      [
        'Bean There',
        '',
        'Thank you for your order #1042.',
        '',
        '2 x Coffee beans: $36.00',
        '1 x Stoneware mug (subscription): $14.00',
        '',
        'Subtotal: $50.00',
        'Shipping: $7.00',
        'Tax: $2.64',
        'Total: $59.64',
        '',
        'Paid with Visa ending in 1111.',
        '',
        'Shipping to:',
        'Ada Lovelace',
        '1 Congress Ave',
        'Austin, TX 73301',
        'United States',
        '',
        'Billing address:',
        'Ada Lovelace',
        '1 Congress Ave',
        'Austin, TX 73301',
        'United States',
        '',
        'Order #1042 at Bean There',
        '',
      ].join('\n'),
    );
  });

  it('writes an address as its country does, the prefecture by its name in the email’s language', () => {
    const tokyo = {
      fname: '太郎',
      lname: '山田',
      address1: '千代田区千代田1-1',
      address2: '',
      city: '',
      state: '13',
      zipcode: '100-0001',
      country: 'JP',
    };
    const input = receipt({ shippingAddress: tokyo, billingAddress: null });
    const japanese = renderReceiptText(input, speechFor('ja'));
    expect(japanese).toContain(['〒100-0001', '東京都', '千代田区千代田1-1', '太郎 山田', '日本'].join('\n'));
    expect(renderReceiptHtml(input, speechFor('ja'))).toContain(
      '<p>〒100-0001<br/>東京都<br/>千代田区千代田1-1<br/>太郎 山田<br/>日本</p>',
    );
    expect(renderReceiptText(input, speechFor('de'))).toContain(
      ['〒100-0001', 'TOKYO', '千代田区千代田1-1', '太郎 山田', 'Japan'].join('\n'),
    );
  });

  it('writes amounts of a currency without decimals as that currency does', () => {
    const yen = receipt({
      order: { ...receipt().order, currency: 'JPY', subtotal: 5000, shipping: 0, tax: 0, total: 5000 },
    });
    expect(receiptTotals(yen)).toEqual([
      { label: 'Subtotal', amount: '¥5,000' },
      { label: 'Total', amount: '¥5,000' },
    ]);
  });

  it('shows a discount with its code and gift cards as deductions', () => {
    const discounted = receipt({
      order: { ...receipt().order, discount: 500, discountCode: 'SAVE5', giftCards: 1000, total: 4464 },
    });
    expect(receiptTotals(discounted)).toContainEqual({ label: 'Discount (SAVE5)', amount: '-$5.00' });
    expect(receiptTotals(discounted)).toContainEqual({ label: 'Gift cards', amount: '-$10.00' });
  });

  it('escapes every merchant and shopper string in the HTML', () => {
    const html = renderReceiptHtml(
      receipt({
        store: { name: 'Ada & <Co>', logoUrl: 'https://cdn.example.com/logo.png?a=1&b="x"' },
        order: { ...receipt().order, discount: 100, discountCode: '<img src=x onerror=alert(1)>' },
        lines: [{ name: '<script>alert(1)</script>', quantity: 1, amount: 100, isRecurring: false }],
        shippingAddress: { ...ADDRESS, address1: '"><b>bold</b>' },
        payment: { method: 'card', brand: '<i>Visa</i>', last4: '1111' },
      }),
    );
    expect(html).not.toMatch(/<script|<img src=x|<b>bold|<i>Visa|<Co>/);
    expect(html).toContain('Ada &amp; &lt;Co&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain(
      '<img src="https://cdn.example.com/logo.png?a=1&amp;b=&quot;x&quot;" alt="Ada &amp; &lt;Co&gt;"',
    );
  });

  it('shows the logo only from an http(s) address', () => {
    const html = renderReceiptHtml(receipt({ store: { name: 'S', logoUrl: 'javascript:alert(1)' } }));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
  });

  it('says a test order charged nothing', () => {
    const test = receipt({ order: { ...receipt().order, isTest: true } });
    expect(renderReceiptText(test)).toContain('(test order: nothing was charged)');
    expect(renderReceiptHtml(test)).toContain('This was a test order: nothing was charged.');
  });

  it('keeps the subject on one line whatever the store is named', () => {
    const { subject } = renderOrderReceipt(
      receipt({ store: { name: 'Evil\r\nBcc: x@example.com', logoUrl: null } }),
    );
    expect(subject).toBe('Your Evil Bcc: x@example.com order #1042');
  });
});

describe('paymentSummary', () => {
  it('names a card by brand and last four digits only', () => {
    expect(paymentSummary({ method: 'card', brand: 'Mastercard', last4: '4444' })).toBe(
      'Paid with Mastercard ending in 4444.',
    );
    expect(paymentSummary({ method: 'card', brand: null, last4: null })).toBe('Paid with Card.');
  });

  it('names a stored brand id as the page does', () => {
    expect(paymentSummary({ method: 'card', brand: 'visa', last4: '1111' })).toBe(
      'Paid with Visa ending in 1111.',
    );
    expect(paymentSummary({ method: 'card', brand: 'american-express', last4: '0005' })).toBe(
      'Paid with American Express ending in 0005.',
    );
  });

  it('never writes more than four digits of a card, whatever is stored', () => {
    expect(paymentSummary({ method: 'card', brand: 'Visa', last4: '4111111111111111' })).toBe(
      'Paid with Visa.',
    );
  });

  it('says how an express or free order was paid', () => {
    expect(paymentSummary({ method: 'paypal', brand: null, last4: null })).toBe('Paid with PayPal.');
    expect(paymentSummary({ method: 'none', brand: null, last4: null })).toBe('No payment was due.');
    expect(paymentSummary(null)).toBe('No payment was due.');
  });
});

describe('the items used online', () => {
  it('are listed with their instructions and link, after the payment, and not at all when there are none', () => {
    const access = [{ itemName: 'Brewing guide', url: 'https://learn.example/g?a=1&b=2', instructions: '' }];
    expect(renderReceiptText(receipt({ access }))).toContain(
      'Your items online:\nBrewing guide: https://learn.example/g?a=1&b=2',
    );
    expect(renderReceiptHtml(receipt({ access }))).toContain(
      '<a href="https://learn.example/g?a=1&amp;b=2">',
    );
    expect(renderReceiptText(receipt())).not.toContain('Your items online');
  });
});
