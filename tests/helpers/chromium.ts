/** Debian's Chromium: test and bench tools cannot download browsers here. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** A quiet Chromium for measuring and testing: no sandbox, GPU, QUIC, first-run screens or background traffic. */
export const QUIET_CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
