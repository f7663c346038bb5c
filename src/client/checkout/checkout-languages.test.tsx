import { I18nProvider } from '@lingui/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cart } from '../../contract/cart.js';
import type { Language } from '../../i18n/languages.js';
import { checkoutLanguages } from '../i18n/checkout-languages.js';
import { createFakeCardProcessor } from '../testing/fake-card-processor.js';
import { createFakeShopperApi } from '../testing/fake-shopper-api.js';
import {
  cartFixture,
  FILLED_CUSTOMER,
  offerFixture,
  pageConfigFixture,
  subscriptionOfferFixture,
} from '../testing/fixtures.js';
import { TEST_NOW } from '../testing/render-checkout.js';
import { CheckoutApp } from './checkout-app.js';

// The page in the shopper's language (docs/languages.md): the checkout surface's catalogues, loaded as the page loads
// them, and <html lang dir> turned with it.

beforeEach(() => window.sessionStorage.clear());
afterEach(() => checkoutLanguages.activate('en'));

async function renderIn(language: Language, cart: Cart) {
  await checkoutLanguages.activate(language);
  const api = createFakeShopperApi(cart);
  const user = userEvent.setup();
  render(
    <I18nProvider i18n={checkoutLanguages.i18n}>
      <CheckoutApp
        config={pageConfigFixture({ language })}
        routeToken={cart.cart_token}
        fetch={api.fetch as typeof fetch}
        now={() => new Date(TEST_NOW)}
        loadCardProcessor={createFakeCardProcessor().load}
      />
    </I18nProvider>,
  );
  return { user, api };
}

const summaryNamed = async (name: string) => within(await screen.findByRole('complementary', { name }));

describe('the checkout page in Spanish', () => {
  it('names its steps, fields, buttons and totals in Spanish, and counts the fields to check', async () => {
    const { user } = await renderIn('es', cartFixture());
    const heading = await screen.findByRole('heading', { name: 'Paso 1: Contacto' });
    expect(heading.textContent).toContain('Contacto');
    expect(document.documentElement.lang).toBe('es');
    expect(document.documentElement.dir).toBe('ltr');
    screen.getByLabelText('Correo electrónico');
    screen.getByLabelText(/Teléfono/);
    expect(screen.getByText('(opcional)')).toBeTruthy();
    screen.getByText('Para tu recibo y las novedades de tu pedido.');
    screen.getByRole('button', { name: /Mostrar el resumen del pedido/ });
    const summary = await summaryNamed('Resumen del pedido');
    summary.getByText('1 artículo');
    const totals = (document.querySelector('.summary__totals') as HTMLElement).textContent;
    expect(totals).toContain('Subtotal');
    expect(totals).toContain('Impuestos');
    summary.getByLabelText('Código de descuento');
    summary.getByRole('button', { name: 'Aplicar' });
    expect(screen.getByText('Pago seguro')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Continuar con el envío' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Revisa 1 campo:');
  });

  it('says the gift step in Spanish', async () => {
    const cart = cartFixture({
      offers: [
        subscriptionOfferFixture({ id: 21, is_gift: true }),
        offerFixture({ id: 22, item_name: 'Stoneware mug', is_giftable: true, is_gift: true }),
      ],
      customer: FILLED_CUSTOMER,
    });
    await renderIn('es', cart);
    await screen.findByRole('button', { name: /Regalo 1: Coffee club subscription/ });
    screen.getByRole('button', { name: /Regalo 2: Stoneware mug/ });
    screen.getByLabelText('Nombre del destinatario');
    screen.getByLabelText('Enviar el aviso del regalo el');
    screen.getByRole('button', { name: 'Siguiente regalo' });
    // Steps before it are done: Change names the step in a whole Spanish message.
    screen.getByRole('button', { name: 'Cambiar el contacto' });
    screen.getByRole('button', { name: 'Volver a la dirección de envío' });
    await summaryNamed('Resumen del pedido').then((summary) => summary.getAllByText('Regalo'));
  });
});

describe('the checkout page in Arabic', () => {
  const lineOf = (quantity: number) =>
    cartFixture({
      offers: [offerFixture({ id: 11, order_offer_quantity: quantity, subtotal_offer: 18 * quantity })],
    });

  it('reads right to left and counts two items in the dual', async () => {
    await renderIn('ar', lineOf(2));
    const summary = await summaryNamed('ملخص الطلب');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    summary.getByText('منتجان');
    summary.getByText('المجموع الفرعي');
    summary.getByRole('button', { name: 'زيادة كمية Ethiopia Yirgacheffe coffee beans' });
    screen.getByRole('heading', { name: 'الخطوة 1: معلومات التواصل' });
    screen.getByRole('button', { name: 'المتابعة إلى الشحن' });
  });

  it('counts eleven items with the plural Arabic uses for eleven', async () => {
    await renderIn('ar', lineOf(11));
    const summary = await summaryNamed('ملخص الطلب');
    summary.getByText(/^(11|١١) منتجًا$/);
    expect(summary.queryByText('منتجان')).toBeNull();
  });
});
