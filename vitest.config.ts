import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { catalogues } from './vite.catalogues.js';

// Database-backed suites run once on the embedded PGlite and, when TEST_DATABASE_URL points at a real PostgreSQL,
// once more there (project "api-postgres").
const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  plugins: [react(), catalogues()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/domain/**/*.test.ts',
            'src/contract/**/*.test.ts',
            'src/i18n/**/*.test.ts',
            'src/server/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          include: ['src/client/**/*.test.{ts,tsx}', 'src/card-frame/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['tests/helpers/client-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api-pglite',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB_KIND: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'api-postgres',
                include: ['tests/api/**/*.test.ts'],
                environment: 'node' as const,
                env: { TEST_DB_KIND: 'postgres', TEST_DATABASE_URL: postgresUrl },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        // Browser tests: the built page (npm run build) in Chromium against the real server. Not part of verify.
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          env: postgresUrl
            ? { TEST_DB_KIND: 'postgres', TEST_DATABASE_URL: postgresUrl }
            : { TEST_DB_KIND: 'pglite' },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
