import { defineConfig, type Plugin } from 'vite';
import { catalogues } from './vite.catalogues.js';

/**
 * Writes the frame's stylesheet into its pages (a <style> element) instead of linking it. Chromium painted the
 * frame's fields before a linked stylesheet arrived, in five of eight loads, and they then moved (a layout shift
 * of 0.19 inside the frame, 0.03 of the page's). The server allows the style by its hash (test-processor-pages.ts).
 */
function inlineStylesheet(): Plugin {
  return {
    name: 'secure-checkout:inline-frame-stylesheet',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const inlined = new Set<string>();
      for (const page of Object.values(bundle)) {
        if (page.type !== 'asset' || !page.fileName.endsWith('.html')) continue;
        page.source = String(page.source).replace(
          /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g,
          (link, fileName: string) => {
            const sheet = bundle[fileName];
            if (sheet?.type !== 'asset') return link;
            inlined.add(fileName);
            return `<style>${String(sheet.source).trim()}</style>`;
          },
        );
      }
      for (const fileName of inlined) delete bundle[fileName];
    },
  };
}

// The test processor's card frame and bank challenge (src/card-frame, docs/payments.md), served from the processor's
// own origin at /frame and /challenge/:id with their assets under /assets/. A build of its own, after the page's, so
// nothing of the checkout page's chunks changes and the frame loads none of the page's code.
export default defineConfig({
  root: 'src/card-frame',
  base: '/',
  publicDir: false,
  plugins: [catalogues(), inlineStylesheet()],
  build: {
    outDir: '../../dist/client/card-frame',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    cssTarget: ['chrome94', 'edge94', 'firefox93', 'safari16.4', 'ios16.4'],
    sourcemap: false,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: { frame: 'src/card-frame/index.html', challenge: 'src/card-frame/challenge.html' },
      // The one stylesheet and the code both pages share, named for what they are rather than their first module.
      output: { chunkFileNames: 'assets/shared-[hash].js', assetFileNames: 'assets/frame-[hash][extname]' },
    },
  },
});
