// The page's side of the test processor's frames (docs/payments.md, "The frame's messages"): which messages it
// listens to. A message is data from another document; only its origin and its window make it the frame's.
import { readFrameMessage, type FrameMessage } from '../../../../domain/card-frame-messages.js';
import type { Language } from '../../../../i18n/languages.js';
import type { Translate } from '../../../i18n/use-t.js';

/** A processor page's URL with the page's language, which the page reads from its `lang` parameter. */
export function withLanguage(url: string, language: Language): string {
  const withLang = new URL(url);
  withLang.searchParams.set('lang', language);
  return withLang.toString();
}

/**
 * The frame's message, or null: it must come from the processor's origin and from the very window the page
 * framed (another frame of the same origin, or a window it opened, does not speak for it).
 */
export function frameMessageOf(
  event: { origin: string; source: unknown; data: unknown },
  expected: { origin: string; window: unknown },
): FrameMessage | null {
  if (expected.window === null || expected.window === undefined) return null;
  if (event.origin !== expected.origin || event.source !== expected.window) return null;
  return readFrameMessage(event.data);
}

/** The processor's origin, from the page config's (an origin, or a URL on it): null when it is not http(s). */
export function processorOriginOf(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Whether a challenge URL is the processor's own: the page frames no other page in its dialog. */
export function isProcessorUrl(url: string, origin: string): boolean {
  return processorOriginOf(url) === origin;
}

/** What a challenge's end means for the payment: only a completed authentication lets it go on. */
export function challengeOutcome(
  message: FrameMessage,
  t: Translate,
): { ok: true } | { ok: false; message: string } | null {
  if (message.type === 'challenge-result') {
    return message.status === 'succeeded'
      ? { ok: true }
      : { ok: false, message: t('payment.authentication_not_completed') };
  }
  if (message.type === 'challenge-closed')
    return { ok: false, message: t('payment.authentication_not_completed') };
  return null;
}
