import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The same build settings as the checkout page (vite.config.ts at the root), for the bare React page.
export default defineConfig({
  root: import.meta.dirname,
  base: '/checkout/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
  },
});
