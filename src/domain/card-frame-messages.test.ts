import { describe, expect, it } from 'vitest';
import {
  frameMessage,
  MAX_FRAME_HEIGHT,
  pageMessage,
  readFrameMessage,
  readPageMessage,
  type FrameMessage,
  type PageMessage,
} from './card-frame-messages.js';

const state = { brand: 'visa', complete: false, empty: false, error: null } as const;

describe('readFrameMessage', () => {
  it('reads each message of the frame and the challenge page', () => {
    const messages: FrameMessage[] = [
      { type: 'ready', height: 180 },
      { type: 'resize', height: 212.5 },
      { type: 'change', state },
      { type: 'change', state: { ...state, brand: null, error: 'Enter your card number.' } },
      { type: 'tokenized', id: 'tokenize-1', token: 'tok_test_abc' },
      { type: 'tokenized', id: 'tokenize-2', message: 'Enter your card number.' },
      { type: 'challenge-result', status: 'succeeded' },
      { type: 'challenge-result', status: 'failed' },
      { type: 'challenge-closed' },
    ];
    for (const message of messages) {
      expect(readFrameMessage(frameMessage(message))).toEqual(message);
    }
  });

  it('drops anything else: other sources, types and shapes', () => {
    for (const data of [
      null,
      'ready',
      [],
      { type: 'ready', height: 180 },
      { source: 'sc-checkout', type: 'ready', height: 180 },
      { source: 'sc-card-frame', type: 'ready', height: MAX_FRAME_HEIGHT + 1 },
      { source: 'sc-card-frame', type: 'ready', height: Number.NaN },
      { source: 'sc-card-frame', type: 'change', state: { ...state, brand: 'jcb' } },
      { source: 'sc-card-frame', type: 'change', state: { ...state, complete: 'yes' } },
      { source: 'sc-card-frame', type: 'tokenized', id: 'x' },
      { source: 'sc-card-frame', type: 'tokenized', id: 1, token: 'tok' },
      { source: 'sc-card-frame', type: 'challenge-result', status: 'pending' },
      { source: 'sc-card-frame', type: 'init', testCards: [] },
    ]) {
      expect(readFrameMessage(data)).toBeNull();
    }
  });
});

describe('readPageMessage', () => {
  it("reads the page's messages", () => {
    const messages: PageMessage[] = [
      { type: 'init', testCards: ['4242424242424242'] },
      { type: 'tokenize', id: 'tokenize-1' },
      { type: 'fill', number: '4111 1111 1111 1111' },
      { type: 'focus' },
      { type: 'language', language: 'es' },
      { type: 'language', language: 'pt-BR' },
    ];
    for (const message of messages) {
      expect(readPageMessage(pageMessage(message))).toEqual(message);
    }
  });

  it('drops anything else', () => {
    for (const data of [
      { type: 'focus' },
      { source: 'sc-card-frame', type: 'focus' },
      { source: 'sc-checkout', type: 'init', testCards: 'all' },
      { source: 'sc-checkout', type: 'init', testCards: [4242] },
      { source: 'sc-checkout', type: 'tokenize' },
      { source: 'sc-checkout', type: 'fill', number: '4'.repeat(41) },
      { source: 'sc-checkout', type: 'ready', height: 1 },
      { source: 'sc-checkout', type: 'language' },
      { source: 'sc-checkout', type: 'language', language: 'pt-br' },
      { source: 'sc-checkout', type: 'language', language: 'xx' },
      { source: 'sc-checkout', type: 'language', language: ['es'] },
      { source: 'sc-card-frame', type: 'language', language: 'es' },
    ]) {
      expect(readPageMessage(data)).toBeNull();
    }
  });
});
