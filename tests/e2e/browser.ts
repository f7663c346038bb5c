import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_CHROMIUM_PATH, QUIET_CHROMIUM_FLAGS } from '../helpers/chromium.js';

/** Debian's Chromium, headless (test tools cannot download browsers here). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH,
    args: ['--headless', ...QUIET_CHROMIUM_FLAGS],
  });
}
