// A page of its own beside the checkout (the subscriber's self-service page, the dashboard): the same toolchain, a
// build of its own into dist/client/<folder>, so the checkout page's chunks and first load never change for it.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin, UserConfig } from 'vite';
import { catalogues } from './vite.catalogues.js';
import { resolveCustomMedia } from './src/client/theme/breakpoints.js';
import {
  expectedPageHeaders,
  inlineScriptHashesOf,
  PAGE_MANIFEST_FILE,
  pageScriptsOf,
  sriOf,
  withIntegrity,
} from './src/server/modules/page/page-manifest.js';

/** Writes out the stylesheets' breakpoint names (`@media (--md)`) from the one list, src/client/theme/breakpoints.ts. */
export function breakpointMedia(): Plugin {
  return {
    name: 'secure-checkout:entry-breakpoint-media',
    enforce: 'pre',
    transform(code, id) {
      return /\.css(\?|$)/.test(id) ? { code: resolveCustomMedia(code), map: null } : null;
    },
  };
}

/**
 * Subresource Integrity on the page's scripts and stylesheets, and its manifest beside it (docs/security.md, "Page
 * scripts"). No import map: the page's policy allows the checkout's one inline script only, and the chunks loaded
 * later come from 'self' like the rest.
 */
function entryIntegrity(base: string): Plugin {
  let outDir = '';
  return {
    name: 'secure-checkout:entry-integrity',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler(_options, bundle) {
        const bySrc = new Map<string, string>();
        for (const file of Object.values(bundle)) {
          if (!/\.(js|css)$/.test(file.fileName)) continue;
          const bytes = await readFile(path.join(outDir, file.fileName));
          bySrc.set(`${base}${file.fileName}`, sriOf(bytes));
        }
        const indexFile = path.join(outDir, 'index.html');
        const html = withIntegrity(await readFile(indexFile, 'utf8'), (src) => bySrc.get(src) ?? null);
        await writeFile(indexFile, html);
        const manifest = {
          version: 1,
          scripts: pageScriptsOf(html),
          assets: [...bySrc].map(([src, integrity]) => ({ src, integrity })),
          scriptHashes: inlineScriptHashesOf(html),
          ...expectedPageHeaders(),
        };
        await writeFile(path.join(outDir, PAGE_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
      },
    },
  };
}

/** The build of the page in src/client/<folder>, served under `base` from dist/client/<folder>. */
export function entryPageConfig(folder: string, base: string): UserConfig {
  return {
    root: `src/client/${folder}`,
    base,
    publicDir: false,
    plugins: [react(), catalogues(), breakpointMedia(), entryIntegrity(base)],
    build: {
      outDir: `../../../dist/client/${folder}`,
      emptyOutDir: true,
      assetsDir: 'assets',
      target: 'es2022',
      cssTarget: ['chrome94', 'edge94', 'firefox93', 'safari16.4', 'ios16.4'],
      sourcemap: false,
      modulePreload: { polyfill: false },
    },
  };
}
