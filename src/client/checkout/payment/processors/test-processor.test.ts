import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { frameMessage, type FrameMessage } from '../../../../domain/card-frame-messages.js';
import type { CardFieldsState, MountedCardFields } from './card-processor.js';
import { createTestProcessor } from './test-processor.js';
import { englishT } from '../../../testing/english-t.js';

const CARD_FRAME_TITLE = englishT('payment.card_frame_title');
const CHALLENGE_FRAME_TITLE = englishT('payment.challenge_frame_title');
const AUTHENTICATION_FAILED_MESSAGE = englishT('payment.authentication_not_completed');
const CARD_FIELDS_TIMEOUT_MESSAGE = englishT('payment.card_fields_timeout');

const ORIGIN = 'http://processor.test';
let container: HTMLElement;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

function post(source: Window | null, message: FrameMessage, origin = ORIGIN): void {
  window.dispatchEvent(new MessageEvent('message', { origin, source, data: frameMessage(message) }));
}

async function mounted(testCards: string[] = []) {
  const changes: CardFieldsState[] = [];
  const processor = createTestProcessor({ origin: `${ORIGIN}/`, timeoutMs: 1000 });
  const mounting = processor.mount(container, {
    testCards,
    onChange: (state) => changes.push(state),
    amount: 1000,
    currency: 'USD',
    storeForFuture: false,
    language: 'en',
    t: englishT,
  });
  const iframe = container.querySelector('iframe')!;
  const frameWindow = iframe.contentWindow!;
  const sent = vi.spyOn(frameWindow, 'postMessage').mockImplementation(() => {});
  post(frameWindow, { type: 'ready', height: 187 });
  const fields: MountedCardFields = await mounting;
  return { fields, iframe, frameWindow, sent, changes };
}

describe('the card frame', () => {
  it("frames the processor's /frame, titled, sized from its reports, and sends it the test cards", async () => {
    const { iframe, frameWindow, sent } = await mounted(['4242424242424242']);
    // The frame speaks the page's language, which it reads from `lang`.
    expect(iframe.getAttribute('src')).toBe(`${ORIGIN}/frame?lang=en`);
    expect(iframe.title).toBe(CARD_FRAME_TITLE);
    expect(iframe.style.height).toBe('187px');
    expect(sent).toHaveBeenCalledWith(
      { source: 'sc-checkout', type: 'init', testCards: ['4242424242424242'] },
      ORIGIN,
    );
    post(frameWindow, { type: 'resize', height: 240 });
    expect(iframe.style.height).toBe('240px');
  });

  it('tells the frame a new language in place, without reloading it', async () => {
    const { fields, iframe, sent } = await mounted();
    fields.setLanguage?.('es');
    expect(sent).toHaveBeenLastCalledWith(
      { source: 'sc-checkout', type: 'language', language: 'es' },
      ORIGIN,
    );
    // Not reloaded: the frame keeps the document the shopper typed into.
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    expect(container.querySelector('iframe')).toBe(iframe);
    expect(iframe.getAttribute('src')).toBe(`${ORIGIN}/frame?lang=en`);
  });

  it("passes the frame's changes on, and hears nothing from another origin or window", async () => {
    const { frameWindow, changes, iframe } = await mounted();
    const state = { brand: 'visa', complete: false, empty: false, error: null } as const;
    post(frameWindow, { type: 'change', state });
    post(frameWindow, { type: 'change', state: { ...state, brand: 'other' } }, 'http://evil.test');
    post(window, { type: 'change', state: { ...state, brand: 'other' } });
    post(frameWindow, { type: 'resize', height: 999 }, 'http://evil.test');
    expect(changes).toEqual([state]);
    expect(iframe.style.height).toBe('187px');
  });

  it('asks for a token and answers with it or with the message', async () => {
    const { fields, frameWindow, sent } = await mounted();
    const first = fields.tokenize();
    const request = sent.mock.calls.at(-1)?.[0] as { type: string; id: string };
    expect(request).toMatchObject({ source: 'sc-checkout', type: 'tokenize' });
    post(frameWindow, { type: 'tokenized', id: request.id, token: 'tok_test_1' });
    await expect(first).resolves.toEqual({ ok: true, token: 'tok_test_1' });

    const second = fields.tokenize();
    const id = (sent.mock.calls.at(-1)?.[0] as { id: string }).id;
    expect(id).not.toBe(request.id);
    post(frameWindow, { type: 'tokenized', id, message: 'Enter your card number.' });
    await expect(second).resolves.toEqual({ ok: false, message: 'Enter your card number.' });
  });

  it('gives up on a frame that does not answer', async () => {
    const { fields } = await mounted();
    vi.useFakeTimers();
    const answer = fields.tokenize();
    vi.advanceTimersByTime(1000);
    await expect(answer).resolves.toEqual({ ok: false, message: CARD_FIELDS_TIMEOUT_MESSAGE });
  });

  it('fills a test card, focuses the fields and goes away when destroyed', async () => {
    const { fields, sent, iframe } = await mounted();
    fields.fillTestCard?.('4111111111111111');
    fields.focus();
    expect(sent).toHaveBeenCalledWith(
      { source: 'sc-checkout', type: 'fill', number: '4111111111111111' },
      ORIGIN,
    );
    expect(sent).toHaveBeenCalledWith({ source: 'sc-checkout', type: 'focus' }, ORIGIN);
    const pending = fields.tokenize();
    fields.destroy();
    expect(iframe.isConnected).toBe(false);
    await expect(pending).resolves.toMatchObject({ ok: false });
  });

  it('fails to mount when the frame never says it is ready', async () => {
    vi.useFakeTimers();
    const processor = createTestProcessor({ origin: ORIGIN, timeoutMs: 1000 });
    const mounting = processor.mount(container, {
      testCards: [],
      onChange() {},
      amount: 1,
      currency: 'USD',
      storeForFuture: false,
      language: 'en',
      t: englishT,
    });
    vi.advanceTimersByTime(1000);
    await expect(mounting).rejects.toThrow(CARD_FIELDS_TIMEOUT_MESSAGE);
    expect(container.querySelector('iframe')).toBeNull();
  });
});

describe('the 3-D Secure challenge', () => {
  const url = `${ORIGIN}/challenge/auth_test_1`;

  function openDialog() {
    const dialog = document.querySelector('dialog')!;
    const frame = dialog.querySelector('iframe')!;
    return { dialog, frame, frameWindow: frame.contentWindow! };
  }

  it('shows the bank page in a dialog with the focus in it, and goes on once it succeeds', async () => {
    const { fields } = await mounted();
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    const answer = fields.authenticate({ type: 'challenge', url });
    const { dialog, frame, frameWindow } = openDialog();
    expect(dialog.getAttribute('aria-labelledby')).toBe('challenge-dialog-title');
    expect(document.getElementById('challenge-dialog-title')?.textContent).toBe(
      'Confirm the payment with your bank',
    );
    expect(frame.getAttribute('src')).toBe(`${url}?lang=en`);
    expect(frame.title).toBe(CHALLENGE_FRAME_TITLE);
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Only the challenge frame speaks for the challenge.
    post(frameWindow, { type: 'challenge-result', status: 'succeeded' }, 'http://evil.test');
    post(window, { type: 'challenge-result', status: 'succeeded' });
    expect(dialog.isConnected).toBe(true);
    post(frameWindow, { type: 'challenge-result', status: 'succeeded' });
    await expect(answer).resolves.toEqual({ ok: true });
    expect(dialog.isConnected).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  it('counts a failed authentication, Escape, Cancel and the challenge closed as not completed', async () => {
    const { fields } = await mounted();
    const failed = { ok: false, message: AUTHENTICATION_FAILED_MESSAGE };

    let answer = fields.authenticate({ type: 'challenge', url });
    post(openDialog().frameWindow, { type: 'challenge-result', status: 'failed' });
    await expect(answer).resolves.toEqual(failed);

    answer = fields.authenticate({ type: 'challenge', url });
    openDialog().dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await expect(answer).resolves.toEqual(failed);

    answer = fields.authenticate({ type: 'challenge', url });
    openDialog().dialog.querySelector('button')!.click();
    await expect(answer).resolves.toEqual(failed);

    answer = fields.authenticate({ type: 'challenge', url });
    post(openDialog().frameWindow, { type: 'challenge-closed' });
    await expect(answer).resolves.toEqual(failed);
    expect(document.querySelector('dialog')).toBeNull();
  });

  it("frames no page but the processor's own", async () => {
    const { fields } = await mounted();
    await expect(
      fields.authenticate({ type: 'challenge', url: 'http://evil.test/challenge/1' }),
    ).resolves.toEqual({
      ok: false,
      message: AUTHENTICATION_FAILED_MESSAGE,
    });
    await expect(fields.authenticate({ type: 'stripe', client_secret: 'x' })).resolves.toMatchObject({
      ok: false,
    });
    expect(document.querySelector('dialog')).toBeNull();
  });
});
