// The merchant's own text in the shopper's language (docs/api.md, "Translations"): the translation when the merchant
// gave one for that language and field, otherwise the store's default text (the base field).
import type { Language } from './languages.js';

export type Translations = Partial<Record<Language, { readonly [field: string]: unknown }>>;

/** One field: its translation into `language` if there is a non-empty one, else `base`. */
export function localizedText<Field extends string, Base extends string | null>(
  base: Base,
  translations: Translations | null | undefined,
  language: Language | null | undefined,
  field: Field,
): string | Base {
  if (!language || !translations) return base;
  const text = translations[language]?.[field];
  return typeof text === 'string' && text.trim() !== '' ? text : base;
}

/** Each of `fields` of `record` in `language`, the rest of it unchanged. */
export function localizedFields<Row extends Record<Field, string | null>, Field extends string>(
  row: Row,
  translations: Translations | null | undefined,
  language: Language | null | undefined,
  fields: readonly Field[],
): Row {
  if (!language || !translations?.[language]) return row;
  const out = { ...row };
  for (const field of fields) {
    (out as Record<Field, string | null>)[field] = localizedText(row[field], translations, language, field);
  }
  return out;
}

export interface ItemOption {
  name: string;
  value: string;
}

/**
 * An offer's options in `language`: each name and value its translation at the same place in the list when there is
 * a non-empty one, else the base's. A translated list of another length (the base changed since) is not used.
 */
export function localizedItemOptions(
  base: readonly ItemOption[],
  translations: Translations | null | undefined,
  language: Language | null | undefined,
): readonly ItemOption[] {
  const translated = language ? translations?.[language]?.item_options : undefined;
  if (!Array.isArray(translated) || translated.length !== base.length) return base;
  const texts = translated as readonly ({ name?: unknown; value?: unknown } | null | undefined)[];
  const textOr = (text: unknown, fallback: string) =>
    typeof text === 'string' && text.trim() !== '' ? text : fallback;
  return base.map((option, index) => ({
    name: textOr(texts[index]?.name, option.name),
    value: textOr(texts[index]?.value, option.value),
  }));
}
