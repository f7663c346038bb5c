// The subscriber's self-service page's messages (SURFACES.manage): English in the first load, each other language a
// chunk.
import english from 'virtual:catalogue/manage/en';
import { pageLanguages } from './page-languages.js';

export const manageLanguages = pageLanguages(english, {
  es: () => import('virtual:catalogue/manage/es'),
  fr: () => import('virtual:catalogue/manage/fr'),
  de: () => import('virtual:catalogue/manage/de'),
  it: () => import('virtual:catalogue/manage/it'),
  'pt-BR': () => import('virtual:catalogue/manage/pt-BR'),
  nl: () => import('virtual:catalogue/manage/nl'),
  ja: () => import('virtual:catalogue/manage/ja'),
  ar: () => import('virtual:catalogue/manage/ar'),
});
