import { describe, expect, it } from 'vitest';
import { frameLanguage, frameTranslator, speakFrameLanguage, writeFrameLanguage } from './frame-language.js';
import frameHtml from './index.html?raw';
import challengeHtml from './challenge.html?raw';

const page = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const text = (document: Document, selector: string) => document.querySelector(selector)?.textContent?.trim();

describe("the processor's pages' language", () => {
  it('reads the lang parameter, taking a region’s language and English for none or an unknown one', () => {
    expect(frameLanguage('?lang=ja')).toBe('ja');
    expect(frameLanguage('?lang=pt-br')).toBe('pt-BR');
    expect(frameLanguage('?lang=es-MX')).toBe('es');
    expect(frameLanguage('?lang=xx')).toBe('en');
    expect(frameLanguage('')).toBe('en');
  });

  it('labels the card fields in Japanese for ?lang=ja', async () => {
    const document = page(frameHtml);
    const t = await speakFrameLanguage(document, '?lang=ja');
    expect(document.documentElement.lang).toBe('ja');
    expect(document.documentElement.dir).toBe('ltr');
    expect(document.title).toBe('カード情報');
    expect(text(document, 'label[for="card-number"]')).toBe('カード番号');
    expect(text(document, 'label[for="card-expiry"]')).toBe('有効期限（MM / YY）');
    expect(text(document, '#card-number-hint')).toBe(
      'Visa、Mastercard、Discover、American Express がご利用いただけます。',
    );
    expect(t('card.cvv_back', { digits: 3 })).toBe('カード裏面の 3 桁の数字です。');
  });

  it('writes the bank challenge right to left in Arabic for ?lang=ar', async () => {
    const document = page(challengeHtml);
    await speakFrameLanguage(document, '?lang=ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(text(document, 'h1')).toBe('يطلب منك البنك تأكيد هذه الدفعة');
    expect(text(document, '#challenge-complete')).toBe('إكمال المصادقة');
  });

  it('stays in English without a lang parameter', async () => {
    const document = page(frameHtml);
    await speakFrameLanguage(document, '');
    expect(document.documentElement.lang).toBe('en');
    expect(text(document, 'label[for="card-cvv"]')).toBe('Security code (CVV)');
  });

  it('turns a frame already open to another language where it stands, keeping what was typed', async () => {
    const document = page(frameHtml);
    await speakFrameLanguage(document, '?lang=en');
    const number = document.querySelector<HTMLInputElement>('#card-number')!;
    const expiry = document.querySelector<HTMLInputElement>('#card-expiry')!;
    number.value = '4111 1111 1111 1111';
    expiry.value = '12 / 30';
    writeFrameLanguage(document, 'es', await frameTranslator('es'));
    expect(document.documentElement.lang).toBe('es');
    expect(text(document, 'label[for="card-number"]')).toBe('Número de tarjeta');
    expect(document.querySelector('#card-number')).toBe(number);
    expect(number.value).toBe('4111 1111 1111 1111');
    expect(expiry.value).toBe('12 / 30');
    writeFrameLanguage(document, 'ar', await frameTranslator('ar'));
    expect(document.documentElement.dir).toBe('rtl');
    expect(number.value).toBe('4111 1111 1111 1111');
  });

  it('gives data-t-placeholder fields their placeholder in the language', async () => {
    const document = page('<html><body><input data-t-placeholder="card.number" /></body></html>');
    writeFrameLanguage(document, 'de', await frameTranslator('de'));
    expect(document.querySelector('input')?.getAttribute('placeholder')).toBe('Kartennummer');
  });
});
