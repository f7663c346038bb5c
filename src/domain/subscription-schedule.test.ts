import { describe, expect, it } from 'vitest';
import { planWordsIn } from './testing/plan-words.js';
import { laterCycleCharges, subscriptionScheduleText } from './subscription-schedule.js';

const english = planWordsIn('en');

const club = { is_recurring: true, billing_interval_days: 30, next_cycle_total: 25 };
const mug = { is_recurring: false, billing_interval_days: null, next_cycle_total: null };

describe('subscriptionScheduleText', () => {
  it('says what is charged today and what later cycles charge', () => {
    expect(subscriptionScheduleText(54.12, [club, mug], 'USD', english)).toBe(
      'Today $54.12, then $25.00 every 30 days',
    );
  });

  it("leaves out a gifted subscription: its later cycles are the recipient's", () => {
    expect(subscriptionScheduleText(29, [{ ...club, is_gift: true }], 'USD', english)).toBeNull();
  });

  it('is null for a one-off order', () => {
    expect(subscriptionScheduleText(14, [mug], 'USD', english)).toBeNull();
  });

  it('lists each interval, shortest first', () => {
    const weekly = { is_recurring: true, billing_interval_days: 7, next_cycle_total: 9.99 };
    expect(subscriptionScheduleText(0, [club, weekly], 'USD', english)).toBe(
      'Today $0.00, then $9.99 every week and $25.00 every 30 days',
    );
  });
});

describe('the schedule in the reader’s language', () => {
  const weekly = { is_recurring: true, billing_interval_days: 7, next_cycle_total: 9.99 };
  const spaced = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');

  it('says it in Spanish, Japanese and Arabic, the intervals listed as each language lists', () => {
    expect(spaced(subscriptionScheduleText(54.12, [club, mug], 'EUR', planWordsIn('es')))).toBe(
      'Hoy 54,12 €, luego 25,00 € cada 30 días',
    );
    expect(subscriptionScheduleText(0, [club, weekly], 'USD', planWordsIn('ja'))).toBe(
      '本日$0.00、その後毎週$9.99、30日ごとに$25.00',
    );
    expect(spaced(subscriptionScheduleText(29, [club], 'USD', planWordsIn('ar')))).toBe(
      'اليوم ‏29.00 US$، وبعد ذلك ‏25.00 US$ كل 30 يومًا',
    );
  });
});

describe('laterCycleCharges', () => {
  it('sums lines of the same interval in minor units', () => {
    const a = { is_recurring: true, billing_interval_days: 30, next_cycle_total: 0.1 };
    const b = { is_recurring: true, billing_interval_days: 30, next_cycle_total: 0.2 };
    expect(laterCycleCharges([a, b], 'USD')).toEqual([{ intervalDays: 30, amount: 0.3 }]);
  });
});
