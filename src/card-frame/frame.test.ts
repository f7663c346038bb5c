import { afterAll, describe, expect, it, vi } from 'vitest';
import { pageMessage } from '../domain/card-frame-messages.js';
import type { Language } from '../i18n/languages.js';
import html from './index.html?raw';

// The frame itself (frame.ts) in this document: its fields, the config block the server writes, and the page's
// messages as the checkout would send them (docs/languages.md: the switcher tells the frame a new language).
const CHECKOUT_ORIGIN = 'https://checkout.example';

document.documentElement.innerHTML = new DOMParser()
  .parseFromString(html, 'text/html')
  .documentElement.innerHTML.replace(
    '<!--processor-config-->',
    `<script type="application/json" id="processor-config">${JSON.stringify({ checkoutOrigin: CHECKOUT_ORIGIN })}</script>`,
  );
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    disconnect() {}
  },
);
afterAll(() => vi.unstubAllGlobals());
await import('./frame.js');

const field = (id: string) => document.getElementById(id) as HTMLInputElement;
const errorOf = (id: string) => document.getElementById(`${id}-error`)?.textContent;

function fill(id: string, value: string): void {
  const input = field(id);
  input.focus();
  input.value = value;
  input.dispatchEvent(new Event('input'));
  input.dispatchEvent(new Event('blur'));
}

function tellLanguage(language: Language): void {
  window.dispatchEvent(
    new MessageEvent('message', {
      origin: CHECKOUT_ORIGIN,
      source: window,
      data: pageMessage({ type: 'language', language }),
    }),
  );
}

describe('the card frame', () => {
  it('says a field error shown in English again in Spanish after the page switches', async () => {
    fill('card-number', '4111 1111 1111 1112');
    fill('card-cvv', '12');
    expect(errorOf('card-number')).toBe('This card number is not valid. Check it for typos.');
    expect(errorOf('card-cvv')).toBe('Enter the 3-digit security code on the back of the card.');

    tellLanguage('es');
    await vi.waitFor(() => expect(document.documentElement.lang).toBe('es'));
    expect(errorOf('card-number')).toBe(
      'Este número de tarjeta no es válido. Comprueba que no haya errores.',
    );
    expect(errorOf('card-cvv')).toBe(
      'Introduce el código de seguridad de 3 dígitos del reverso de la tarjeta.',
    );
    // What was typed stays.
    expect(field('card-number').value).toBe('4111 1111 1111 1112');
  });
});
