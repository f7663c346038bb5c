// An offer's options in other languages (docs/api.md, "Translations") are read by their place in the list, so each
// language's list must be as long as item_options: a shorter or longer one could only pair the wrong texts.
import type { OfferValues } from './offers-repository.js';

const optionCount = (count: number) => (count === 1 ? '1 option' : `${count} options`);

/** A field error for each language whose translated options are not one per option of the offer. */
export function checkOptionTranslations(
  offer: Pick<OfferValues, 'item_options' | 'translations'>,
): Record<string, string> {
  const fields: Record<string, string> = {};
  const expected = offer.item_options.length;
  for (const [language, entry] of Object.entries(offer.translations)) {
    const translated = entry?.item_options;
    if (translated === undefined || translated.length === expected) continue;
    fields[`translations.${language}.item_options`] =
      `translations.${language}.item_options has ${optionCount(translated.length)} but item_options has ` +
      `${optionCount(expected)}: give one translation per option, in the same order (leave a name or value ` +
      `empty to show the original), or leave item_options out of translations.${language}.`;
  }
  return fields;
}
