// Which catalogues (src/i18n/catalogues/<namespace>/<language>.json) each page loads: a page carries the messages it can
// show and no others (docs/languages.md). The server reads every catalogue.

export const SURFACES = {
  /** the checkout page (src/client) */
  checkout: [
    'common',
    'language',
    'fields',
    'checkout',
    'gifts',
    'summary',
    'ui',
    'address',
    'payment',
    'confirmation',
    'funnel',
    'plan',
  ],
  /** the subscriber's self-service page (src/client/manage) */
  manage: ['common', 'language', 'manage', 'payment'],
  /** the merchant's dashboard (src/client/admin): English, with the shared controls' words */
  admin: ['common', 'ui', 'checkout'], // checkout: the sections' names for their order
  /** the test processor's card frame and bank challenge (src/card-frame) */
  'card-frame': ['common', 'card'],
} as const satisfies Record<string, readonly string[]>;

export type Surface = keyof typeof SURFACES;

export function isSurface(name: string): name is Surface {
  return Object.hasOwn(SURFACES, name);
}
