/** A plain-text table: the first row is the header; columns after the first are right-aligned. */
export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const [header, ...body] = rows;
  if (!header) return '';
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export const whole = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
export const ms = (n: number) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : Math.round(n)} ms` : '-');
export const mb = (bytes: number | null) => (bytes === null ? '-' : `${Math.round(bytes / 1024 / 1024)} MB`);
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const percent = (ratio: number) => (Number.isFinite(ratio) ? `${Math.round(ratio * 100)}%` : '-');
/** The host's share of a virtual machine's CPU time during a case (steal), or '-' where unknown. */
export const stolen = (share: number | null) => (share === null ? '-' : percent(share));
/** "✓ goal" or "✗ goal", for a figure beside its goal. */
export const goal = (met: boolean, text: string) => `${met ? 'met' : 'MISSED'}: ${text}`;
