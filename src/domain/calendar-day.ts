// A day of the calendar as the API writes it (YYYY-MM-DD), for filters by date.

/** Whether `day` is `YYYY-MM-DD` and a day of the calendar (2026-02-30 is not). */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}
