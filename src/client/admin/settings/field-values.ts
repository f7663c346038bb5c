// What a form's text fields send: the server decides what is valid, so text that is not a number goes as it is and
// is refused with the server's words by its field.
import { LANGUAGES, type Language } from '../../../i18n/languages.js';

/** "49.99" → 49.99; anything else (empty, "abc") as the trimmed text. */
export function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** An optional number: empty → null. */
export function optionalNumber(text: string): number | string | null {
  return text.trim() === '' ? null : numberOrText(text);
}

/** An optional text: empty → null. */
export function optionalText(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/** "US, ca  MX" → ["US", "ca", "MX"]: a list typed with commas or spaces. */
export function listOfText(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** Card numbers typed with commas between them: "4242 4242 4242 4242, 4000…" → the numbers without their spaces. */
export function cardListOf(text: string): string[] {
  return text
    .split(',')
    .map((card) => card.replace(/\s+/g, ''))
    .filter(Boolean);
}

/** A list shown in one field: ["US", "CA"] → "US, CA". */
export function textOfList(list: readonly (string | number)[]): string {
  return list.join(', ');
}

/**
 * The server's field errors under the names a form gives its fields: an error inside a field's value
 * ("client_options.testCards.2", the third number of the list) is shown by that field ("client_options.testCards").
 * A name no field has is kept, so the summary still says it.
 */
export function fieldErrorsFor(
  fields: Record<string, string>,
  names: readonly string[],
): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields)) {
    const name =
      names
        .filter((candidate) => key === candidate || key.startsWith(`${candidate}.`))
        .sort((a, b) => b.length - a.length)[0] ?? key;
    shown[name] ??= message;
  }
  return shown;
}

/**
 * The API's `translations` for text typed per language (docs/api.md, "Translations"): each field trimmed, an empty
 * one left out so it falls back to the store's text, a language with nothing typed left out.
 */
export function filledTranslations<Field extends string>(
  values: Partial<Record<Language, Record<Field, string>>>,
): Partial<Record<Language, Partial<Record<Field, string>>>> {
  const body: Partial<Record<Language, Partial<Record<Field, string>>>> = {};
  for (const language of LANGUAGES) {
    const typed = values[language];
    if (!typed) continue;
    const filled = Object.fromEntries(
      Object.entries<string>(typed)
        .map(([field, text]) => [field, text.trim()])
        .filter(([, text]) => text !== ''),
    ) as Partial<Record<Field, string>>;
    if (Object.keys(filled).length > 0) body[language] = filled;
  }
  return body;
}
