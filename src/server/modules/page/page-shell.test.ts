import { describe, expect, it } from 'vitest';
import { pageConfigFixture } from '../../../client/testing/fixtures.js';
import { translatorFor } from '../../i18n/translator.js';
import { renderPage } from './page-service.js';
import { escapeHtml, renderPageShell, SHELL_PLACEHOLDER } from './page-shell.js';

const en = translatorFor('en');

// The page's own markup (the same as React's first view) is compared in the browser tests (tests/e2e).
describe('the page shell in the HTML', () => {
  it("shows the store's header and the loading line, or the link's error", () => {
    const page = renderPageShell(pageConfigFixture({ test_mode: true }), en);
    expect(page).toContain('<p class="header__store">Northwind Coffee Roasters</p>');
    expect(page).toContain('<p class="loading" role="status">Loading your order…</p>');
    expect(page).toContain('<p class="test-banner">');
    expect(page).toContain(
      '<a href="https://example.com/terms" target="_blank" rel="noreferrer">Terms of service</a>',
    );
    const message = 'This checkout link is no longer valid. Ask the store for a new one.';
    const error = renderPageShell({ error: { code: 'cart_not_found', message } }, en);
    expect(error).toContain(
      `<div class="page-error" role="alert"><h2>This checkout link is not valid</h2><p>${message}</p></div>`,
    );
    expect(error).toContain('<p class="header__store"></p>');
    const claimed = renderPageShell({ error: { code: 'gift_already_claimed', message: 'Used once.' } }, en);
    expect(claimed).toContain('<h2>This gift has already been claimed</h2><p>Used once.</p>');
  });

  it("escapes the store's name and logo address", () => {
    const name = '<script>alert("x")</script> & Sons\'';
    const text = renderPageShell(pageConfigFixture({ organization_name: name }), en);
    expect(text).not.toContain('<script>');
    expect(text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons&#x27;');
    const logo = renderPageShell(
      pageConfigFixture({ organization_name: name, logo_url: 'https://x.example/"onerror="alert(1)' }),
      en,
    );
    expect(logo).not.toContain('"onerror="');
    expect(logo).toContain(`alt="${escapeHtml(name)}"`);
  });

  it('goes inside #root of the template, beside the config block', () => {
    const template = `<head><!--checkout-config--></head><body><div id="root">${SHELL_PLACEHOLDER}</div></body>`;
    const html = renderPage(template, pageConfigFixture(), 'en');
    expect(html).toContain('<div id="root"><div class="shell">');
    expect(html).toContain('<script type="application/json" id="checkout-config">');
    expect(html).not.toContain(SHELL_PLACEHOLDER);
  });

  it("speaks the page's language, and writes Arabic right to left", () => {
    const template = `<html lang="en"><head><title data-t="common.secure_checkout">Secure Checkout</title><!--checkout-config--></head><div id="root">${SHELL_PLACEHOLDER}</div></html>`;
    const arabic = renderPage(template, pageConfigFixture({ language: 'ar' }), 'ar');
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain(
      `<title data-t="common.secure_checkout">${translatorFor('ar')('common.secure_checkout')}</title>`,
    );
    expect(arabic).not.toContain('Secure Checkout');
    expect(arabic).toContain('<p class="loading" role="status">جارٍ تحميل طلبك…</p>');
    const spanish = renderPageShell(pageConfigFixture({ test_mode: true }), translatorFor('es'));
    expect(spanish).toContain('Modo de prueba: los pedidos son de prueba y no se cobra ninguna tarjeta.');
    expect(spanish).toContain('>Condiciones del servicio</a>');
  });
});
