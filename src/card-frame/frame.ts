// The test processor's card fields, inside the checkout's iframe (docs/payments.md, "The built-in test processor").
// Vanilla TypeScript: the whole frame must stay a few KB. The page hears only what the message protocol says.
import './frame.css';
import { getCardType } from '../domain/card.js';
import { frameMessage, type FrameMessage } from '../domain/card-frame-messages.js';
import { sayFieldMessage, type FieldMessage } from '../domain/field-errors.js';
import {
  cardFieldErrors,
  cvvHint,
  errorAfterBlur,
  errorAfterInput,
  FIELD_NAMES,
  fieldErrorsOfTokenAnswer,
  formatField,
  frameState,
  tokenRequestBody,
  type FieldErrors,
  type FieldName,
  type FieldValues,
} from './card-fields-state.js';
import { readProcessorConfig } from './processor-config.js';
import { frameLanguage, frameTranslator, speakFrameLanguage, writeFrameLanguage } from './frame-language.js';
import { pageMessageListener } from './page-message-listener.js';
import type { Language } from '../i18n/languages.js';
import type { MessageKey } from '../i18n/message-keys.js';

// The page's language first: the fields are labelled in it before the frame says it is ready. The page's switcher
// may turn it later (speak, below).
let t = await speakFrameLanguage(document, window.location.search);
let language = frameLanguage(window.location.search);
const FIELD_ERROR: Record<FieldName, MessageKey> = {
  number: 'card.number_error',
  expiry: 'card.expiry_error',
  cvv: 'card.cvv_error',
};

const { checkoutOrigin } = readProcessorConfig(document);
const framed = window.parent !== window;
let testCards: readonly string[] = [];
let shown: FieldErrors = {};

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const inputs: Record<FieldName, HTMLInputElement> = {
  number: byId('card-number'),
  expiry: byId('card-expiry'),
  cvv: byId('card-cvv'),
};
const main = byId<HTMLElement>('card-frame');
const announcer = byId<HTMLElement>('announcer');
const brandBox = byId<HTMLElement>('card-brand');
const brandIcon = byId<HTMLImageElement>('card-brand-icon');
const brandLabel = byId<HTMLElement>('card-brand-label');

function post(message: FrameMessage): void {
  if (framed) window.parent.postMessage(frameMessage(message), checkoutOrigin);
}

const values = (): FieldValues => ({
  number: inputs.number.value,
  expiry: inputs.expiry.value,
  cvv: inputs.cvv.value,
});
const errorsNow = () => cardFieldErrors(values(), { now: new Date(), testCards });

/** Each field's message, aria-invalid and description; the brand icon; the CVV hint. */
function render(): void {
  for (const name of FIELD_NAMES) {
    const input = inputs[name];
    const error = byId<HTMLElement>(`${input.id}-error`);
    const message = shown[name];
    // Said at each render in the frame's current language: a switch says a rule's message again.
    error.textContent = message === undefined ? '' : sayFieldMessage(message, t);
    error.hidden = message === undefined;
    input.closest('.field')?.classList.toggle('field--invalid', message !== undefined);
    if (message === undefined) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
    const hint = document.getElementById(`${input.id}-hint`) ? `${input.id}-hint` : null;
    const described = [hint, message === undefined ? null : `${input.id}-error`];
    if (name === 'number') described.push('card-brand-label');
    if (described.some(Boolean)) input.setAttribute('aria-describedby', described.filter(Boolean).join(' '));
    else input.removeAttribute('aria-describedby');
  }
  const type = getCardType(inputs.number.value, testCards);
  brandBox.hidden = type === null;
  if (type) {
    const src = `/images/cards/${type.icon}.svg`;
    if (brandIcon.getAttribute('src') !== src) brandIcon.src = src;
    brandLabel.textContent = type.label;
  } else brandLabel.textContent = '';
  byId<HTMLElement>('card-cvv-hint').textContent = cvvHint(inputs.number.value, testCards, t);
}

let lastState = '';
/** Tells the page the new state, once per change of it. */
function report(): void {
  const state = frameState(values(), shown, errorsNow(), testCards, t);
  const text = JSON.stringify(state);
  if (text === lastState) return;
  lastState = text;
  post({ type: 'change', state });
}

const said = (message: FieldMessage | undefined) =>
  message === undefined ? undefined : sayFieldMessage(message, t);

function announce(text: string): void {
  // Cleared first, so the same sentence twice is still read out.
  announcer.textContent = '';
  window.setTimeout(() => (announcer.textContent = text), 50);
}

for (const name of FIELD_NAMES) {
  const input = inputs[name];
  input.addEventListener('input', () => {
    const formatted = formatField(name, input.value);
    if (formatted !== input.value) {
      // Keep the caret at the end when the shopper types at the end (the usual case); grouping moves it otherwise.
      const atEnd = input.selectionStart === input.value.length;
      input.value = formatted;
      if (atEnd) input.setSelectionRange(formatted.length, formatted.length);
    }
    const error = errorAfterInput(name, shown, errorsNow());
    shown = { ...shown, [name]: error };
    if (error === undefined) delete shown[name];
    render();
    report();
  });
  input.addEventListener('blur', () => {
    const before = said(shown[name]);
    const error = errorAfterBlur(name, values(), shown, errorsNow());
    shown = { ...shown, [name]: error };
    if (error === undefined) delete shown[name];
    render();
    report();
    // Said aloud: the focus has left the field whose description carries it.
    const text = said(error);
    if (text && text !== before) announce(t(FIELD_ERROR[name], { error: text }));
  });
}

/** Asks for a token: every problem is shown first, as the page's "Place order" shows them. */
async function tokenize(id: string): Promise<void> {
  const errors = errorsNow();
  shown = { ...errors };
  render();
  report();
  const first = FIELD_NAMES.map((name) => said(errors[name])).find(Boolean);
  if (first) {
    post({ type: 'tokenized', id, message: first });
    return;
  }
  let response: Response;
  try {
    response = await fetch('/v1/tokens', {
      method: 'POST',
      // The card service's field messages come back in the frame's language.
      headers: { 'content-type': 'application/json', 'accept-language': language },
      body: JSON.stringify(tokenRequestBody(values(), testCards)),
    });
  } catch {
    post({ type: 'tokenized', id, message: t('card.no_answer') });
    return;
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok && typeof body.token === 'string') {
    post({ type: 'tokenized', id, token: body.token });
    return;
  }
  const fields =
    body.fields && typeof body.fields === 'object' ? (body.fields as Record<string, unknown>) : {};
  shown = fieldErrorsOfTokenAnswer(fields);
  render();
  report();
  const message =
    FIELD_NAMES.map((name) => said(shown[name])).find(Boolean) ??
    (typeof body.message === 'string' ? body.message : t('card.no_answer'));
  post({ type: 'tokenized', id, message });
}

let switches = 0;
/**
 * The page turned to another language: the frame says its words in it where it stands, so what was typed stays
 * (docs/languages.md). The rules' messages under the fields are said again; the card service's answers stay as given.
 */
async function speak(next: Language): Promise<void> {
  const mine = ++switches;
  const translate = await frameTranslator(next).catch(() => null);
  // A later switch wins over a slower chunk; a chunk that cannot load leaves the frame as it was.
  if (mine !== switches || !translate || next === language) return;
  t = translate;
  language = next;
  writeFrameLanguage(document, next, t);
  const errors = errorsNow();
  for (const name of FIELD_NAMES) {
    const error = errors[name];
    if (shown[name] !== undefined && error !== undefined) shown = { ...shown, [name]: error };
  }
  render();
  report();
}

window.addEventListener(
  'message',
  pageMessageListener(
    { checkoutOrigin, parent: window.parent },
    {
      init(message) {
        testCards = message.testCards;
        render();
        report();
      },
      tokenize: (message) => void tokenize(message.id),
      fill(message) {
        inputs.number.value = formatField('number', message.number);
        delete shown.number;
        render();
        report();
      },
      focus: () => inputs.number.focus(),
      language: (message) => void speak(message.language),
    },
  ),
);

const height = () => Math.ceil(main.getBoundingClientRect().height);
render();
post({ type: 'ready', height: height() });
let lastHeight = height();
new ResizeObserver(() => {
  const now = height();
  if (now === lastHeight) return;
  lastHeight = now;
  post({ type: 'resize', height: now });
}).observe(main);
