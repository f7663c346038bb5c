/** The page's authentication state (docs/checkout-rules.md#start-and-authorization), held in memory only. */
export interface AuthState {
  access_token: string | null;
  token_type: string | null;
  expires_in: number | null;
  /** the stored authorization error, shown instead of 'No access token requested' */
  error: string | null;
  organization: string;
  csrfToken: string | null;
  csrfTokenExpiry: number | null;
  /** the visitor's public IP when known; sent with non-GET bodies */
  ip_address: string | null;
}

export function initialAuthState(organization: string): AuthState {
  return {
    access_token: null,
    token_type: null,
    expires_in: null,
    error: null,
    organization,
    csrfToken: null,
    csrfTokenExpiry: null,
    ip_address: null,
  };
}

export function hasCredentials(auth: AuthState): boolean {
  return Boolean(auth.access_token && auth.token_type && auth.csrfToken);
}
