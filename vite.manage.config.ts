import { defineConfig } from 'vite';
import { entryPageConfig } from './vite.entry.js';

// The subscriber's self-service page (src/client/manage, docs/subscriptions.md), served at /checkout/manage/<token>
// with its assets under /checkout/manage/assets/.
export default defineConfig(entryPageConfig('manage', '/checkout/manage/'));
