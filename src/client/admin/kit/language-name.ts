// A language's name in the dashboard's own language, English ("Spanish"), for the merchant's translation forms.
import type { Language } from '../../../i18n/languages.js';

const names = new Intl.DisplayNames(['en'], { type: 'language' });

export const languageName = (language: Language): string => names.of(language) ?? language;
