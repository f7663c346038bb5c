import { describe, expect, it, vi } from 'vitest';
import { pageMessage } from '../domain/card-frame-messages.js';
import { pageMessageListener } from './page-message-listener.js';

const CHECKOUT = 'https://checkout.example.test';
const parent = { name: 'the checkout page' };

function listen() {
  const handlers = {
    init: vi.fn(),
    tokenize: vi.fn(),
    fill: vi.fn(),
    focus: vi.fn(),
    language: vi.fn(),
  };
  return { handlers, listener: pageMessageListener({ checkoutOrigin: CHECKOUT, parent }, handlers) };
}

describe("the card frame's ear for the page", () => {
  it("hands the page's language to the frame, and each other message to its handler", () => {
    const { handlers, listener } = listen();
    listener({ origin: CHECKOUT, source: parent, data: pageMessage({ type: 'language', language: 'es' }) });
    listener({ origin: CHECKOUT, source: parent, data: pageMessage({ type: 'tokenize', id: 't-1' }) });
    expect(handlers.language).toHaveBeenCalledExactlyOnceWith({ type: 'language', language: 'es' });
    expect(handlers.tokenize).toHaveBeenCalledExactlyOnceWith({ type: 'tokenize', id: 't-1' });
    expect(handlers.init).not.toHaveBeenCalled();
  });

  it('hears nothing from another origin, another window, or of another shape', () => {
    const { handlers, listener } = listen();
    const language = pageMessage({ type: 'language', language: 'ar' });
    listener({ origin: 'https://evil.example.test', source: parent, data: language });
    listener({ origin: CHECKOUT, source: { name: 'another frame' }, data: language });
    listener({ origin: CHECKOUT, source: null, data: language });
    listener({ origin: CHECKOUT, source: parent, data: { ...language, language: 'klingon' } });
    listener({ origin: CHECKOUT, source: parent, data: { ...language, source: 'sc-card-frame' } });
    listener({ origin: CHECKOUT, source: parent, data: 'language' });
    for (const handler of Object.values(handlers)) expect(handler).not.toHaveBeenCalled();
  });
});
