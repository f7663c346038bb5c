import { describe, expect, it } from 'vitest';
import { countdownAnnouncement as announcement, countdownText } from './upsell-rules.js';
import { englishT } from '../../testing/english-t.js';

const countdownAnnouncement = (before: number, now: number) => announcement(before, now, englishT);

describe("the upsell offer's countdown", () => {
  it('reads minutes and seconds', () => {
    expect(countdownText(600)).toBe('10:00');
    expect(countdownText(545)).toBe('9:05');
    expect(countdownText(-3)).toBe('0:00');
  });

  it('is announced at 5, 2 and 1 minutes and 30 seconds only', () => {
    expect(countdownAnnouncement(301, 300)).toBe('This offer ends in 5 minutes.');
    expect(countdownAnnouncement(61, 59)).toBe('This offer ends in 1 minute.');
    expect(countdownAnnouncement(31, 30)).toBe('This offer ends in 30 seconds.');
    expect(countdownAnnouncement(299, 298)).toBeNull();
    expect(countdownAnnouncement(600, 599)).toBeNull();
  });
});
