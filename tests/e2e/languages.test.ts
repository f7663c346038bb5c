import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverEmails } from '../helpers/server-jobs.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { CARD_FRAME, ordersOfCart } from './checkout-page.js';
import { useShopperBrowser } from './shopper-browser.js';

// The page in the shopper's language (docs/languages.md) in Chromium against the built server: the browser's language,
// ?lang=ar right to left, the switcher keeping what was typed, and an order placed in Japanese whose receipt, received
// by a real SMTP server, is in Japanese; axe finds nothing in Arabic and Japanese.

const session = useShopperBrowser();
let inbox: SmtpInbox;

beforeAll(async () => {
  inbox = await startSmtpInbox();
});

afterAll(async () => {
  await inbox?.close();
});

const coffee = () => session.server.newCart([{ item_id: 'BEANS-ETH-340' }]);

describe('the checkout in the shopper’s language', () => {
  it('opens in Spanish for a browser in Spanish', async () => {
    const checkout = await session.shopper(undefined, 'es-ES');
    await checkout.open(await coffee());
    expect(await checkout.page.getAttribute('html', 'lang')).toBe('es');
    await checkout.page.getByRole('heading', { level: 1, name: 'Pago seguro' }).waitFor();
    await checkout.page.getByRole('button', { name: 'Continuar con el envío' }).waitFor();
    expect(await checkout.page.getByLabel('Correo electrónico').count()).toBe(1);
  });

  it('mirrors the whole page in Arabic, with nothing for axe to find', async () => {
    const checkout = await session.shopper({ width: 1280, height: 900 });
    await checkout.open(`${await coffee()}?lang=ar`);
    expect(await checkout.page.getAttribute('html', 'dir')).toBe('rtl');
    await checkout.page.getByRole('heading', { level: 1, name: 'الدفع الآمن' }).waitFor();
    const summary = await checkout.page.locator('.summary').boundingBox();
    const main = await checkout.page.locator('.checkout__main').boundingBox();
    expect(summary && main && summary.x < main.x).toBe(true);
    expect(await checkout.axe()).toEqual([]);
  });

  it('changes language with the switcher without losing what was typed', async () => {
    const checkout = await session.shopper();
    await checkout.open(await coffee());
    await checkout.page.locator('#field-email').fill('lena@example.com');
    await checkout.page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await checkout.page.getByRole('combobox', { name: 'Sprache' }).waitFor();
    expect(await checkout.page.getAttribute('html', 'lang')).toBe('de');
    expect(await checkout.page.locator('#field-email').inputValue()).toBe('lena@example.com');
    await checkout.page.getByRole('heading', { level: 1, name: 'Sicher bezahlen' }).waitFor();
    // Kept with the cart: a reload without ?lang= opens in German.
    await checkout.page.reload();
    await checkout.page.locator('.sections').waitFor();
    expect(await checkout.page.getAttribute('html', 'lang')).toBe('de');
  });

  it('says a shipping notice already shown again in the language switched to', async () => {
    const checkout = await session.shopper();
    await checkout.open(await coffee());
    await checkout.fillContact('lena@example.com');
    await checkout.field('Country or region').selectOption('JP');
    const notice = checkout.page.locator('.notice--info[role="status"]');
    await notice.getByText("We don't ship to Japan. Choose another shipping address.").waitFor();
    await checkout.page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await notice.getByText('No hacemos envíos a Japón. Elige otra dirección de envío.').waitFor();
    expect(await notice.count()).toBe(1);
  });

  it('turns the card frame to Spanish in place, keeping the card typed into it, and pays with that card', async () => {
    const checkout = await session.shopper();
    const token = await coffee();
    await checkout.open(token);
    await checkout.fillContact('lucia@example.com');
    await checkout.fillShipping();
    await checkout.cardReady();
    const { page } = checkout;
    const cardFrame = await (await page.locator(CARD_FRAME).elementHandle())?.contentFrame();
    if (!cardFrame) throw new Error('The card frame is not there.');
    const reloads: string[] = [];
    page.on('framenavigated', (navigated) => {
      if (navigated === cardFrame) reloads.push(navigated.url());
    });
    await cardFrame.getByLabel('Card number').pressSequentially('5555 5555 5555 4444');
    await cardFrame.getByLabel('Expiry date (MM / YY)').pressSequentially('1129');
    // Marks this document: a reloaded frame would be a new one, without the mark.
    await cardFrame.evaluate('window.typedBeforeTheSwitch = true');

    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await page.getByRole('combobox', { name: 'Idioma' }).waitFor();
    await cardFrame.locator('label[for="card-number"]', { hasText: 'Número de tarjeta' }).waitFor();
    expect(await cardFrame.evaluate('[document.documentElement.lang, document.title]')).toEqual([
      'es',
      'Datos de la tarjeta',
    ]);
    expect(await cardFrame.locator('label[for="card-expiry"]').textContent()).toBe(
      'Fecha de caducidad (MM / AA)',
    );
    // The same document, with what was typed: read from the frame, which the page cannot do.
    expect(await cardFrame.evaluate("'typedBeforeTheSwitch' in window")).toBe(true);
    expect(reloads).toEqual([]);
    expect(await cardFrame.locator('#card-number').inputValue()).toBe('5555 5555 5555 4444');
    expect(await cardFrame.locator('#card-expiry').inputValue()).toBe('11 / 29');

    await cardFrame.getByLabel('Código de seguridad (CVV)').pressSequentially('123');
    await checkout.cardState('complete');
    await page.getByRole('button', { name: /^Pagar \d/ }).click();
    await page.locator('.confirmation').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0].status).toBe('complete');
    expect(
      orders[0].payment_attempts.map((attempt: Record<string, unknown>) => ({
        status: attempt.status,
        card_brand: attempt.card_brand,
        card_last4: attempt.card_last4,
        card_exp_month: attempt.card_exp_month,
        card_exp_year: attempt.card_exp_year,
      })),
    ).toEqual([
      {
        status: 'approved',
        card_brand: 'mastercard',
        card_last4: '4444',
        card_exp_month: 11,
        card_exp_year: 2029,
      },
    ]);
  });

  it('takes an order in Japanese and sends its receipt in Japanese', async () => {
    const checkout = await session.shopper({ width: 1280, height: 900 }, 'ja-JP');
    const token = await coffee();
    await checkout.open(token);
    const { page } = checkout;
    expect(await page.getAttribute('html', 'lang')).toBe('ja');
    await page.locator('#field-email').fill('hanako@example.com');
    await page.getByRole('button', { name: 'お届け先へ進む' }).click();
    await page.locator('#field-ship_country').selectOption('US');
    await page.locator('#field-ship_fname').fill('Hanako');
    await page.locator('#field-ship_lname').fill('Yamada');
    await page.locator('#field-ship_address1').fill('1 Main St');
    await page.locator('#field-ship_city').fill('Austin');
    await page.locator('#field-ship_state').selectOption('TX');
    await page.locator('#field-ship_zipcode').fill('73301');
    await page.getByRole('button', { name: /へ進む$/ }).click();
    const frame = page.frameLocator(CARD_FRAME);
    await frame.locator('#card-number').pressSequentially('4111 1111 1111 1111');
    await frame.locator('#card-expiry').fill('12 / 30');
    await frame.locator('#card-cvv').fill('123');
    await page.locator('#field-card_details[data-card-state="complete"]').waitFor();
    expect(await checkout.axe()).toEqual([]);
    await page.getByRole('button', { name: /を支払う$/ }).click();
    await page.getByRole('heading', { name: 'Hanako 様、ありがとうございます！' }).waitFor();
    expect(await checkout.axe()).toEqual([]);

    const receipts = (await deliverEmails(session.server, inbox)).filter((mail) =>
      mail.to && 'text' in mail.to ? mail.to.text.includes('hanako@example.com') : false,
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.subject).toMatch(/のご注文（注文番号 \d+）$/);
    expect(receipts[0]?.text).toContain('ありがとうございます');
    expect(receipts[0]?.html).toContain('lang="ja"');
  });
});
