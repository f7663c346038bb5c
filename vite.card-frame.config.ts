import { defineConfig } from 'vite';

// The test processor's card frame and bank challenge (src/card-frame, docs/payments.md), served from the processor's
// own origin at /frame and /challenge/:id with their assets under /assets/. A build of its own, after the page's, so
// nothing of the checkout page's chunks changes and the frame loads none of the page's code.
export default defineConfig({
  root: 'src/card-frame',
  base: '/',
  publicDir: false,
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
