import { defineConfig } from 'vite';
import { entryPageConfig } from './vite.entry.js';

// The dashboard (src/client/admin, docs/dashboard.md), served at /admin with its assets under /admin/assets/.
export default defineConfig(entryPageConfig('admin', '/admin/'));
