/** Leaves the page for another address (the express provider's approval page). */
export function navigateTo(url: string): void {
  window.location.assign(url);
}
