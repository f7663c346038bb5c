/** The link's token: the last part of /checkout/manage/<token>, or null when the address has none. */
export function manageTokenOf(pathname: string): string | null {
  const match = /^\/checkout\/manage\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}
