// The messages between the checkout page and the test processor's card frame (docs/payments.md, "The frame's
// messages"). Both sides read what they receive through these functions: a message is data from another origin,
// so anything of another shape is dropped, and the caller checks event.origin before reading it.
import { isLanguage, type Language } from '../i18n/languages.js';

export const FRAME_SOURCE = 'sc-card-frame';
export const PAGE_SOURCE = 'sc-checkout';

/** The brand the frame reports: from the first 4 digits, 'testcard' for a given test card, 'other' when refused. */
export type FrameCardBrand =
  'visa' | 'mastercard' | 'discover' | 'american-express' | 'testcard' | 'other' | null;

/** What the frame tells the page as the shopper types (the page's CardFieldsState): never the number or the CVV. */
export interface FrameCardState {
  brand: FrameCardBrand;
  complete: boolean;
  empty: boolean;
  error: string | null;
}

export type FrameMessage =
  | { type: 'ready'; height: number }
  | { type: 'resize'; height: number }
  | { type: 'change'; state: FrameCardState }
  | { type: 'tokenized'; id: string; token: string }
  | { type: 'tokenized'; id: string; message: string }
  | { type: 'challenge-result'; status: 'succeeded' | 'failed' }
  | { type: 'challenge-closed' };

export type PageMessage =
  | { type: 'init'; testCards: string[] }
  | { type: 'tokenize'; id: string }
  | { type: 'fill'; number: string }
  | { type: 'focus' }
  /** the page turned to another language: the frame says its words in it, keeping what was typed */
  | { type: 'language'; language: Language };

/** A frame never needs to be taller than this; a larger figure is a mistake, not a size to take. */
export const MAX_FRAME_HEIGHT = 2000;

const BRANDS: readonly FrameCardBrand[] = [
  'visa',
  'mastercard',
  'discover',
  'american-express',
  'testcard',
  'other',
  null,
];

type Fields = Record<string, unknown>;

function fieldsFrom(data: unknown, source: string): Fields | null {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const fields = data as Fields;
  return fields.source === source && typeof fields.type === 'string' ? fields : null;
}

const isText = (value: unknown, max = 200): value is string =>
  typeof value === 'string' && value.length <= max;
const isHeight = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_FRAME_HEIGHT;

function readState(value: unknown): FrameCardState | null {
  if (value === null || typeof value !== 'object') return null;
  const state = value as Fields;
  if (!BRANDS.includes(state.brand as FrameCardBrand)) return null;
  if (typeof state.complete !== 'boolean' || typeof state.empty !== 'boolean') return null;
  if (state.error !== null && !isText(state.error, 500)) return null;
  return {
    brand: state.brand as FrameCardBrand,
    complete: state.complete,
    empty: state.empty,
    error: state.error as string | null,
  };
}

/** A message from the frame or the challenge page (the page reads these), or null when it is none. */
export function readFrameMessage(data: unknown): FrameMessage | null {
  const fields = fieldsFrom(data, FRAME_SOURCE);
  if (!fields) return null;
  switch (fields.type) {
    case 'ready':
    case 'resize':
      return isHeight(fields.height) ? { type: fields.type, height: fields.height } : null;
    case 'change': {
      const state = readState(fields.state);
      return state ? { type: 'change', state } : null;
    }
    case 'tokenized':
      if (!isText(fields.id)) return null;
      if (isText(fields.token)) return { type: 'tokenized', id: fields.id, token: fields.token };
      if (isText(fields.message, 500)) return { type: 'tokenized', id: fields.id, message: fields.message };
      return null;
    case 'challenge-result':
      return fields.status === 'succeeded' || fields.status === 'failed'
        ? { type: 'challenge-result', status: fields.status }
        : null;
    case 'challenge-closed':
      return { type: 'challenge-closed' };
    default:
      return null;
  }
}

/** A message from the page (the frame reads these), or null when it is none. */
export function readPageMessage(data: unknown): PageMessage | null {
  const fields = fieldsFrom(data, PAGE_SOURCE);
  if (!fields) return null;
  switch (fields.type) {
    case 'init': {
      const cards = fields.testCards;
      if (!Array.isArray(cards) || cards.length > 50 || !cards.every((card) => isText(card, 40))) return null;
      return { type: 'init', testCards: cards as string[] };
    }
    case 'tokenize':
      return isText(fields.id) ? { type: 'tokenize', id: fields.id } : null;
    case 'fill':
      return isText(fields.number, 40) ? { type: 'fill', number: fields.number } : null;
    case 'focus':
      return { type: 'focus' };
    case 'language':
      return typeof fields.language === 'string' && isLanguage(fields.language)
        ? { type: 'language', language: fields.language }
        : null;
    default:
      return null;
  }
}

/** The message as it is posted, with its source. */
export function frameMessage(message: FrameMessage): FrameMessage & { source: typeof FRAME_SOURCE } {
  return { source: FRAME_SOURCE, ...message };
}

export function pageMessage(message: PageMessage): PageMessage & { source: typeof PAGE_SOURCE } {
  return { source: PAGE_SOURCE, ...message };
}
