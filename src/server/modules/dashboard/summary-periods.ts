// The periods the dashboard's home counts (docs/dashboard.md, "Home"): days and months in UTC, as the API's times.

export function periodStarts(now: Date): { today: Date; month: Date } {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { today, month };
}
