// The checkout page's messages (SURFACES.checkout): English in the first load, each other language a chunk.
import english from 'virtual:catalogue/checkout/en';
import { pageLanguages } from './page-languages.js';

export const checkoutLanguages = pageLanguages(english, {
  es: () => import('virtual:catalogue/checkout/es'),
  fr: () => import('virtual:catalogue/checkout/fr'),
  de: () => import('virtual:catalogue/checkout/de'),
  it: () => import('virtual:catalogue/checkout/it'),
  'pt-BR': () => import('virtual:catalogue/checkout/pt-BR'),
  nl: () => import('virtual:catalogue/checkout/nl'),
  ja: () => import('virtual:catalogue/checkout/ja'),
  ar: () => import('virtual:catalogue/checkout/ar'),
});
