// The merchant's own shopper-facing text in other languages (docs/api.md, "Translations"): an optional object keyed
// by language, each holding some of the base fields; a field left out reads the store's default text.
import { LANGUAGES } from '../i18n/languages.js';
import { z } from './zod.js';

const UNKNOWN_LANGUAGE = (keys: readonly PropertyKey[]) =>
  `${keys.map(String).join(', ')} is not a language the checkout speaks: key translations by one of ` +
  `${LANGUAGES.join(', ')}.`;

/** `{ es: {…}, ja: {…} }`: only LANGUAGES keys, each entry a partial of the given fields (same limits). */
export function translationsOf<Shape extends z.core.$ZodLooseShape>(fields: Shape) {
  return z.partialRecord(z.enum(LANGUAGES), z.partial(z.strictObject(fields)), {
    // A key outside LANGUAGES comes back as unrecognized (partialRecord over an enum).
    error: (issue) => {
      const { code, keys } = issue as { code: string; keys?: readonly PropertyKey[] };
      return code === 'unrecognized_keys' && keys ? UNKNOWN_LANGUAGE(keys) : undefined;
    },
  });
}
