import type { Message, MessageKey, MessageValues } from '../i18n/message-keys.js';

/** Field name → what the shopper should do to fix it, said in the page's language. Empty when every field is fine. */
export type FieldErrors = Record<string, string>;

/**
 * What a rule answers for a field: a message each side says in its reader's language (docs/languages.md), or text
 * where the rule has no message in a catalogue yet.
 */
export type FieldMessage = Message | string;
export type FieldMessages = Record<string, FieldMessage>;

export function hasFieldErrors(errors: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(errors).length > 0;
}

/** Keys a group of errors like the form names its fields: "ship_" + "zipcode", "gift_name" + "_7". */
export function renameFieldErrors<T>(
  errors: Readonly<Record<string, T>>,
  rename: (name: string) => string,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [name, message] of Object.entries(errors)) out[rename(name)] = message;
  return out;
}

/** A field's message in the reader's language: `say` is the page's t() or the server's translatorFor(language). */
export function sayFieldMessage(
  message: FieldMessage,
  say: (key: MessageKey, values?: MessageValues) => string,
): string {
  return typeof message === 'string' ? message : say(message.key, message.values);
}

export function sayFieldMessages(
  messages: Readonly<FieldMessages>,
  say: (key: MessageKey, values?: MessageValues) => string,
): FieldErrors {
  // fromEntries defines each name as the object's own: a field named __proto__ stays a field.
  return Object.fromEntries(
    Object.entries(messages).map(([name, message]) => [name, sayFieldMessage(message, say)]),
  );
}
