// The page adapter of the built-in test processor (docs/payments.md, "The page adapter" and "The frame's
// messages"): its card fields in an iframe on the processor's origin, and its 3-D Secure challenge in a dialog.
// The page hears brand, completeness, errors and a token; it never sees the fields' document.
import './test-processor.css';
import { pageMessage, type FrameMessage, type PageMessage } from '../../../../domain/card-frame-messages.js';
import type { Translate } from '../../../i18n/use-t.js';
import type { Language } from '../../../../i18n/languages.js';
import type { CardProcessor, MountedCardFields, Outcome, PaymentAction } from './card-processor.js';
import {
  challengeOutcome,
  frameMessageOf,
  isProcessorUrl,
  processorOriginOf,
  withLanguage,
} from './test-processor-rules.js';

export interface TestProcessorOptions {
  /** The processor's origin, from the page config (`card_processor: {name: "test", origin}`). */
  origin: string;
  /** How long the frame may take to load, and to answer a tokenize (default 15 s). */
  timeoutMs?: number;
}

export function createTestProcessor(options: TestProcessorOptions): CardProcessor {
  const origin = processorOriginOf(options.origin);
  if (origin === null)
    throw new Error(`The test processor's origin is not an http(s) URL: ${options.origin}`);
  const timeoutMs = options.timeoutMs ?? 15_000;

  return {
    mount(container, mountOptions) {
      const { t } = mountOptions;
      // The page's switcher may turn the language after mounting (setLanguage): its words are read when said.
      let language = mountOptions.language;
      const notCompleted = () => t('payment.authentication_not_completed');
      const timedOut = () => t('payment.card_fields_timeout');
      const iframe = document.createElement('iframe');
      // The frame speaks the page's language: it reads it from its `lang` parameter (src/card-frame).
      iframe.src = withLanguage(`${origin}/frame`, language);
      iframe.title = t('payment.card_frame_title');
      iframe.className = 'card-frame-iframe';
      container.append(iframe);

      const pending = new Map<string, (outcome: Outcome<{ token: string }>) => void>();
      let requests = 0;
      let challenge: { window: () => Window | null; end: (outcome: Outcome) => void } | null = null;
      let onReady: () => void = () => {};

      const send = (message: PageMessage) => iframe.contentWindow?.postMessage(pageMessage(message), origin);
      const setHeight = (height: number) => {
        iframe.style.height = `${height}px`;
      };

      const onFrameMessage = (message: FrameMessage) => {
        if (message.type === 'ready') {
          setHeight(message.height);
          send({ type: 'init', testCards: [...mountOptions.testCards] });
          onReady();
        } else if (message.type === 'resize') setHeight(message.height);
        else if (message.type === 'change') mountOptions.onChange(message.state);
        else if (message.type === 'tokenized') {
          const resolve = pending.get(message.id);
          pending.delete(message.id);
          resolve?.(
            'token' in message ? { ok: true, token: message.token } : { ok: false, message: message.message },
          );
        }
      };

      const onMessage = (event: MessageEvent) => {
        const fromFrame = frameMessageOf(event, { origin, window: iframe.contentWindow });
        if (fromFrame) return onFrameMessage(fromFrame);
        const fromChallenge = challenge && frameMessageOf(event, { origin, window: challenge.window() });
        const outcome = fromChallenge ? challengeOutcome(fromChallenge, t) : null;
        if (outcome) challenge?.end(outcome);
      };
      window.addEventListener('message', onMessage);

      const destroy = () => {
        window.removeEventListener('message', onMessage);
        for (const resolve of pending.values()) resolve({ ok: false, message: timedOut() });
        pending.clear();
        challenge?.end({ ok: false, message: notCompleted() });
        iframe.remove();
      };

      const fields: MountedCardFields = {
        tokenize() {
          const id = `tokenize-${++requests}`;
          return new Promise((resolve) => {
            const timer = window.setTimeout(() => {
              pending.delete(id);
              resolve({ ok: false, message: timedOut() });
            }, timeoutMs);
            pending.set(id, (outcome) => {
              window.clearTimeout(timer);
              resolve(outcome);
            });
            send({ type: 'tokenize', id });
          });
        },
        authenticate(action: PaymentAction) {
          if (action.type !== 'challenge' || !isProcessorUrl(action.url, origin)) {
            return Promise.resolve({ ok: false, message: notCompleted() });
          }
          // One challenge at a time: a new one ends the one still open, which was not completed.
          challenge?.end({ ok: false, message: notCompleted() });
          return new Promise((resolve) => {
            const opened = openChallengeDialog(action.url, { t, language }, (outcome) => {
              challenge = null;
              resolve(outcome);
            });
            challenge = opened;
          });
        },
        fillTestCard(number: string) {
          send({ type: 'fill', number });
        },
        setLanguage(next) {
          // Told, not reloaded: a new document would lose what the shopper typed into the frame.
          language = next;
          iframe.title = t('payment.card_frame_title');
          send({ type: 'language', language: next });
        },
        focus() {
          // The frame's window first: a page's script may not move focus into a cross-origin document otherwise.
          iframe.focus();
          send({ type: 'focus' });
        },
        destroy,
      };

      return new Promise<MountedCardFields>((resolve, reject) => {
        const timer = window.setTimeout(() => {
          destroy();
          reject(new Error(timedOut()));
        }, timeoutMs);
        onReady = () => {
          window.clearTimeout(timer);
          onReady = () => {};
          resolve(fields);
        };
      });
    },
  };
}

/**
 * The bank's challenge in a modal dialog over the page: focus moves into it and comes back after; Escape, Cancel
 * or a failed authentication end it as not completed (nothing is charged, docs/payments.md "One path").
 */
function openChallengeDialog(
  url: string,
  { t, language }: { t: Translate; language: Language },
  done: (outcome: Outcome) => void,
): { window: () => Window | null; end: (outcome: Outcome) => void } {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = document.createElement('dialog');
  dialog.className = 'challenge-dialog';
  dialog.setAttribute('aria-labelledby', 'challenge-dialog-title');
  const title = document.createElement('h2');
  title.id = 'challenge-dialog-title';
  title.className = 'challenge-dialog__title';
  title.textContent = t('payment.challenge_dialog_title');
  const frame = document.createElement('iframe');
  frame.className = 'challenge-dialog__frame';
  frame.title = t('payment.challenge_frame_title');
  frame.src = withLanguage(url, language);
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.className = 'button button--secondary challenge-dialog__cancel';
  cancel.textContent = t('payment.cancel');
  dialog.append(title, frame, cancel);
  document.body.append(dialog);

  let ended = false;
  const end = (outcome: Outcome) => {
    if (ended) return;
    ended = true;
    if (dialog.open && typeof dialog.close === 'function') dialog.close();
    dialog.remove();
    previous?.focus();
    done(outcome);
  };
  const notCompleted = () => end({ ok: false, message: t('payment.authentication_not_completed') });
  cancel.addEventListener('click', notCompleted);
  // Escape on the page's side of the dialog (inside the frame the challenge page tells us itself).
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    notCompleted();
  });
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') notCompleted();
  });

  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
  frame.focus();
  return { window: () => frame.contentWindow, end };
}
