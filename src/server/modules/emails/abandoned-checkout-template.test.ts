import { describe, expect, it } from 'vitest';
import { renderAbandonedCheckout, type AbandonedCheckoutInput } from './abandoned-checkout-template.js';

const input: AbandonedCheckoutInput = {
  store: { name: 'Ada & Co <Coffee>', logoUrl: 'https://cdn.example.com/logo.png' },
  currency: 'USD',
  lines: [
    { name: 'Coffee beans', quantity: 2, amount: 3600 },
    { name: 'Mug <b>', quantity: 1, amount: 1405 },
  ],
  total: 5494,
  recoveryUrl: 'https://pay.example.com/checkout/abcDEF1234567890abcdEF',
};

describe('the abandoned-checkout reminder', () => {
  it('says what is in the cart, its total in the store currency, and links back to the cart', () => {
    const email = renderAbandonedCheckout(input);
    expect(email.subject).toBe('You left something in your cart at Ada & Co <Coffee>');
    expect(email.text).toContain('2 x Coffee beans: $36.00');
    expect(email.text).toContain('1 x Mug <b>: $14.05');
    expect(email.text).toContain('Total: $54.94');
    expect(email.text).toContain(`Complete your order here:\n${input.recoveryUrl}\n`);
    expect(email.html).toContain(`<a href="${input.recoveryUrl}"`);
    expect(email.html).toContain('$54.94');
    expect(email.html).toContain('<img src="https://cdn.example.com/logo.png"');
  });

  it('says why the shopper got it', () => {
    const email = renderAbandonedCheckout(input);
    for (const body of [email.text, email.html]) {
      expect(body).toContain('agreed to hear from the store');
      expect(body).toContain('the only reminder about this cart');
    }
  });

  it('escapes what the merchant wrote in the HTML and leaves out a logo that is not http(s)', () => {
    const email = renderAbandonedCheckout({
      ...input,
      store: { name: 'A & B <i>', logoUrl: 'javascript:alert(1)' },
    });
    expect(email.html).toContain('<h1 style="font-size:20px">A &amp; B &lt;i&gt;</h1>');
    expect(email.html).toContain('Mug &lt;b&gt;');
    expect(email.html).not.toContain('<i>');
    expect(email.html).not.toContain('<img');
    expect(email.html).not.toContain('javascript:');
  });

  it('formats amounts of a currency without minor units', () => {
    const email = renderAbandonedCheckout({
      ...input,
      currency: 'JPY',
      lines: [{ name: 'Tea', quantity: 1, amount: 1500 }],
      total: 1500,
    });
    expect(email.text).toMatch(/Total: ¥1,500\n/);
  });
});
