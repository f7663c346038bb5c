import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkoutLanguages } from '../../i18n/checkout-languages.js';
import { createFakeCardProcessor } from '../../testing/fake-card-processor.js';
import { createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import { cartFixture, FILLED_CUSTOMER } from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(async () => {
  window.sessionStorage.clear();
  await checkoutLanguages.activate('en');
});

const liveRegion = () => document.querySelector('[aria-live="polite"]')?.textContent ?? '';

describe('the language switcher', () => {
  it('is not there for a store with one language', async () => {
    renderCheckout({ cart: cartFixture(), config: { languages: ['en'] } });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('combobox', { name: 'Language' })).toBeNull();
  });

  it('turns the page to the chosen language in place, keeps what was typed, and tells the cart', async () => {
    const api = createFakeShopperApi(cartFixture());
    renderCheckout({ api, config: { languages: ['en', 'es', 'ar'] } });
    const email = await screen.findByLabelText(/email/i);
    await userEvent.type(email, 'ana@example.com');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'ar');
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(await screen.findByRole('combobox', { name: 'اللغة' })).toHaveProperty('value', 'ar');
    await waitFor(() => expect(liveRegion()).toBe('أصبحت الصفحة الآن باللغة العربية.'));
    expect(screen.getByDisplayValue('ana@example.com')).toBe(email);
    await waitFor(() =>
      expect(api.requestsTo('PUT', /\/language$/).map((request) => request.body?.language)).toEqual([
        'en',
        'ar',
      ]),
    );
  });

  it('tells the card fields the new language in place, without mounting them again', async () => {
    const card = createFakeCardProcessor();
    renderCheckout({
      cart: cartFixture({ customer: FILLED_CUSTOMER }),
      cardProcessor: card,
      config: { languages: ['en', 'es'] },
    });
    await screen.findByRole('group', { name: 'Card details' });
    await waitFor(() => expect(card.mounted).not.toBeNull());
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'es');
    await screen.findByRole('combobox', { name: 'Idioma' });
    await waitFor(() => expect(card.languages).toEqual(['es']));
    expect(card.mounts).toBe(1);
    expect(card.destroyed).toBe(0);
  });
});

describe("the page's opening language", () => {
  it('is kept on the cart for a store with a single language other than English, which has no switcher', async () => {
    await checkoutLanguages.activate('es');
    const api = createFakeShopperApi(cartFixture());
    renderCheckout({ api, config: { language: 'es', languages: ['es'] } });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('combobox', { name: 'Idioma' })).toBeNull();
    await waitFor(() =>
      expect(api.requestsTo('PUT', /\/language$/).map((request) => request.body?.language)).toEqual(['es']),
    );
  });

  it('is not told again to a cart that already keeps it', async () => {
    await checkoutLanguages.activate('es');
    const api = createFakeShopperApi(cartFixture());
    renderCheckout({ api, config: { language: 'es', languages: ['en', 'es'], kept_language: 'es' } });
    await screen.findByRole('combobox', { name: 'Idioma' });
    // The cart's own read comes after authorizing: once it is here, the page has decided whether to tell.
    await waitFor(() => expect(api.requestsTo('GET', /\/carts\//).length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.requestsTo('PUT', /\/language$/)).toEqual([]);
  });
});
