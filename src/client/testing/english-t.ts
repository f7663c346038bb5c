import { fallbackI18n } from '../i18n/fallback-i18n.js';
import type { Translate } from '../i18n/use-t.js';

/** The page's t() in English, from every catalogue the component tests load (tests/helpers/client-setup.ts). */
export const englishT: Translate = (key, values) => {
  const i18n = fallbackI18n();
  if (!i18n) throw new Error('Component tests load the English catalogues in tests/helpers/client-setup.ts.');
  return i18n._(key, values);
};
