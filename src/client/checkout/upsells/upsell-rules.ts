// What the upsell offer's countdown says, and when it speaks (docs/api.md, "Upsells").
import type { Translate } from '../../i18n/use-t.js';

/** "9:05" for 545 seconds. */
export function countdownText(secondsLeft: number): string {
  const seconds = Math.max(0, Math.ceil(secondsLeft));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The moments the countdown is announced to screen readers (politely): not every second, only these. */
const ANNOUNCED = [300, 120, 60, 30] as const;

/** What to announce as the countdown moves from `before` to `now` seconds left, or null. */
export function countdownAnnouncement(before: number, now: number, t: Translate): string | null {
  const crossed = ANNOUNCED.find((mark) => before > mark && now <= mark);
  if (crossed === undefined) return null;
  return crossed >= 60
    ? t('funnel.ends_in_minutes', { minutes: crossed / 60 })
    : t('funnel.ends_in_seconds', { seconds: crossed });
}
