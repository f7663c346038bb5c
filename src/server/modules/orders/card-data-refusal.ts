// Card details never come to our server: the processor's frame takes them and the page sends its token
// (docs/payments.md). A body that carries them anyway is refused whole, before anything is read or written.
import type { Message } from '../../../i18n/message-keys.js';
import { refusal, type AppError } from '../../platform/errors.js';

/** The fields a page that took the card itself would send (ours did, before the frames; other checkouts' names too). */
const CARD_DATA_FIELDS = [
  'card_number',
  'card_cvv',
  'card_exp_month',
  'card_exp_year',
  'card_type_id',
  'cc_number',
  'cc_cvv',
  'cvv',
  'number',
  'exp_month',
  'exp_year',
] as const;

/** Said in the request's language, like the shopper API's other refusals (docs/languages.md). */
export const CARD_DATA_REFUSED_MESSAGE = { key: 'errors.card_data_refused' } as const satisfies Message;

/** The 422 for an order body whose payment carries card details, naming each such field; null for any other body. */
export function refuseCardData(body: unknown): AppError | null {
  if (body === null || typeof body !== 'object') return null;
  const payment = (body as { payment?: unknown }).payment;
  if (payment === null || typeof payment !== 'object') return null;
  const present = CARD_DATA_FIELDS.filter((name) => Object.hasOwn(payment, name));
  if (present.length === 0) return null;
  const fields = Object.fromEntries(present.map((name) => [`payment.${name}`, CARD_DATA_REFUSED_MESSAGE]));
  return refusal(422, 'card_data_refused', CARD_DATA_REFUSED_MESSAGE, { fields });
}
