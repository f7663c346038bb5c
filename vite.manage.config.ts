import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { resolveCustomMedia } from './src/client/theme/breakpoints.js';
import {
  expectedPageHeaders,
  inlineScriptHashesOf,
  PAGE_MANIFEST_FILE,
  pageScriptsOf,
  sriOf,
  withIntegrity,
} from './src/server/modules/page/page-manifest.js';

// The subscriber's self-service page (src/client/manage, docs/subscriptions.md), served at /checkout/manage/<token>
// with its assets under /checkout/manage/assets/. A build of its own, after the checkout's, so nothing of the
// checkout page's chunks changes and its first load carries none of this page's code.

/** The stylesheets' breakpoint names (`@media (--md)`), as the checkout's build writes them (vite.config.ts). */
function breakpointMedia(): Plugin {
  return {
    name: 'secure-checkout:manage-breakpoint-media',
    enforce: 'pre',
    transform(code, id) {
      return /\.css(\?|$)/.test(id) ? { code: resolveCustomMedia(code), map: null } : null;
    },
  };
}

/**
 * Subresource Integrity on the page's scripts and stylesheets, and its manifest beside it (docs/security.md, "Page
 * scripts"). No import map: the page's policy allows the checkout's one inline script only, and the chunks loaded
 * later (the card processor's adapter) come from 'self' like the rest.
 */
function manageIntegrity(): Plugin {
  let outDir = '';
  return {
    name: 'secure-checkout:manage-integrity',
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
          bySrc.set(`/checkout/manage/${file.fileName}`, sriOf(bytes));
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

export default defineConfig({
  root: 'src/client/manage',
  base: '/checkout/manage/',
  publicDir: false,
  plugins: [react(), breakpointMedia(), manageIntegrity()],
  build: {
    outDir: '../../../dist/client/manage',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    cssTarget: ['chrome94', 'edge94', 'firefox93', 'safari16.4', 'ios16.4'],
    sourcemap: false,
    modulePreload: { polyfill: false },
  },
});
