import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The page is served by the Fastify server at /checkout/{cart_token}; hashed assets live under /checkout/assets/.
export default defineConfig({
  root: 'src/client',
  base: '/checkout/',
  plugins: [react()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
  },
});
