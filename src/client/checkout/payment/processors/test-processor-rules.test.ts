import { describe, expect, it } from 'vitest';
import { frameMessage } from '../../../../domain/card-frame-messages.js';
import { englishT } from '../../../testing/english-t.js';
import {
  challengeOutcome,
  frameMessageOf,
  isProcessorUrl,
  processorOriginOf,
} from './test-processor-rules.js';

const ORIGIN = 'https://pay.example';
const AUTHENTICATION_FAILED_MESSAGE = englishT('payment.authentication_not_completed');
const frame = {};
const ready = frameMessage({ type: 'ready', height: 100 });

describe('frameMessageOf', () => {
  it("reads a message only from the processor's origin and the framed window", () => {
    const expected = { origin: ORIGIN, window: frame };
    expect(frameMessageOf({ origin: ORIGIN, source: frame, data: ready }, expected)).toEqual({
      type: 'ready',
      height: 100,
    });
    expect(
      frameMessageOf({ origin: 'https://evil.example', source: frame, data: ready }, expected),
    ).toBeNull();
    expect(frameMessageOf({ origin: ORIGIN, source: {}, data: ready }, expected)).toBeNull();
    expect(
      frameMessageOf({ origin: ORIGIN, source: null, data: ready }, { origin: ORIGIN, window: null }),
    ).toBeNull();
    expect(frameMessageOf({ origin: ORIGIN, source: frame, data: { type: 'ready' } }, expected)).toBeNull();
  });
});

describe('processorOriginOf and isProcessorUrl', () => {
  it('take http(s) origins only and compare whole origins', () => {
    expect(processorOriginOf('https://pay.example/')).toBe(ORIGIN);
    expect(processorOriginOf('javascript:alert(1)')).toBeNull();
    expect(processorOriginOf('not a url')).toBeNull();
    expect(isProcessorUrl('https://pay.example/challenge/a', ORIGIN)).toBe(true);
    expect(isProcessorUrl('https://pay.example.evil.test/challenge/a', ORIGIN)).toBe(false);
    expect(isProcessorUrl('http://pay.example/challenge/a', ORIGIN)).toBe(false);
  });
});

describe('challengeOutcome', () => {
  it('goes on only after a completed authentication', () => {
    const failed = { ok: false, message: AUTHENTICATION_FAILED_MESSAGE };
    expect(challengeOutcome({ type: 'challenge-result', status: 'succeeded' }, englishT)).toEqual({
      ok: true,
    });
    expect(challengeOutcome({ type: 'challenge-result', status: 'failed' }, englishT)).toEqual(failed);
    expect(challengeOutcome({ type: 'challenge-closed' }, englishT)).toEqual(failed);
    expect(challengeOutcome({ type: 'resize', height: 1 }, englishT)).toBeNull();
  });
});
