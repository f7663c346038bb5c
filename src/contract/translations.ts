// The merchant's own shopper-facing text in other languages (docs/api.md, "Translations"): an optional object keyed
// by language, each holding some of the base fields; a field left out reads the store's default text.
import { isLanguage, LANGUAGES, type Language } from '../i18n/languages.js';
import { z } from './zod.js';

const UNKNOWN_LANGUAGE = (key: string) =>
  `${key} is not a language the checkout speaks: key translations by one of ${LANGUAGES.join(', ')}.`;

/** `{ es: {…}, ja: {…} }`: only LANGUAGES keys, each entry a partial of the given fields (same limits). */
export function translationsOf<Shape extends z.core.$ZodLooseShape>(fields: Shape) {
  const entry = z.partial(z.strictObject(fields));
  return z.record(z.string(), entry).check(
    z.superRefine((value, context) => {
      for (const key of Object.keys(value)) {
        if (!isLanguage(key)) {
          context.issues.push({ code: 'custom', message: UNKNOWN_LANGUAGE(key), input: value, path: [key] });
        }
      }
    }),
  ) as unknown as z.ZodMiniType<
    Partial<Record<Language, z.output<typeof entry>>>,
    Partial<Record<Language, z.input<typeof entry>>>
  >;
}
