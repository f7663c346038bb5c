import type { Plugin } from 'vite';
import { isLanguage } from './src/i18n/languages.js';
import { readShownCounts } from './src/i18n/shown-counts.js';
import { isSurface, SURFACES } from './src/i18n/surfaces.js';
import { catalogueFile, catalogueNamespaces, compileCatalogues } from './src/server/i18n/catalogue-files.js';

const PREFIX = 'virtual:catalogue/';

/**
 * `virtual:catalogue/<surface>/<language>`: the surface's messages in that language, compiled by Lingui's compiler at
 * build time, so the page ships no message parser (7 KB gzip) and each language imported with import() is a chunk of
 * its own (docs/languages.md). @lingui/vite-plugin does the same for .po files but brings Babel and its macro.
 */
export function catalogues(): Plugin {
  return {
    name: 'secure-checkout:catalogues',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const [surface = '', language = ''] = id.slice(PREFIX.length + 1).split('/');
      if (!(surface === 'all' || isSurface(surface)) || !isLanguage(language))
        throw new Error(`Unknown catalogue ${id.slice(1)}.`);
      // "all": every namespace, for component tests (tests/helpers/client-setup.ts), never a page.
      const namespaces = surface === 'all' ? catalogueNamespaces() : SURFACES[surface];
      for (const namespace of namespaces) {
        this.addWatchFile(catalogueFile(namespace, 'en'));
        this.addWatchFile(catalogueFile(namespace, language));
      }
      // A plural's `#` reads the count the page wrote, so no Intl.NumberFormat starts for it (src/i18n/shown-counts.ts).
      const compiled = Object.fromEntries(
        Object.entries(compileCatalogues(namespaces, language)).map(([key, message]) => [
          key,
          readShownCounts(message),
        ]),
      );
      return `export default ${JSON.stringify(compiled)};`;
    },
  };
}
