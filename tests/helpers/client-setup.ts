import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // The page keeps its open section in the history entry's state: each test starts on an unmarked entry.
  // (jsdom's window; this file is type-checked without the DOM's types)
  const { history } = globalThis as unknown as {
    history: { replaceState(state: unknown, unused: string, url: string): void };
  };
  history.replaceState(null, '', '/');
});
