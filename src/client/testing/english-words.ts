// The page's English words for tests of code that is handed a translate function (tests/helpers/client-setup.ts
// loads every English catalogue as the fallback).
import type { Translate } from '../i18n/use-t.js';
import { fallbackI18n } from '../i18n/fallback-i18n.js';

export const englishT: Translate = (key, values) => {
  const i18n = fallbackI18n();
  if (!i18n) throw new Error('Client tests load the English catalogues (tests/helpers/client-setup.ts).');
  return i18n._(key, values);
};
