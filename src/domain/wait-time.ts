/** "45 seconds", "1 minute", "10 minutes": how long someone is asked to wait, rounded up. */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The same for a wait in milliseconds (at least one second). */
export function describeWaitMs(ms: number): string {
  return describeWait(Math.max(1, Math.ceil(ms / 1000)));
}
