// The dashboard's server state (docs/dashboard.md): one TanStack Query client, one key per thing the API answers.
import { QueryClient } from '@tanstack/react-query';
import { DashboardSummarySchema } from '../../contract/dashboard.js';
import { StaffSessionSchema, type StaffSession } from '../../contract/staff.js';
import { ApiFailure, rememberCsrfToken, request } from './admin-api.js';

export const SESSION_KEY = ['session'] as const;
export const SUMMARY_KEY = ['summary'] as const;

export function createAdminQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A refusal is shown, not retried: a 401 means signing in again, a 403 is the role's.
      queries: { retry: false, staleTime: 30_000, networkMode: 'always' },
      mutations: { networkMode: 'always' },
    },
  });
}

/** The signed-in session, or null when the browser is not signed in (the API's 401). */
export async function readSession(): Promise<StaffSession | null> {
  try {
    const session = await request(StaffSessionSchema, 'GET', '/admin/api/session');
    rememberCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 401) return null;
    throw error;
  }
}

export function readSummary() {
  return request(DashboardSummarySchema, 'GET', '/checkout/api/merchant/summary');
}

/** What a sign-in or a used link answers: the session, remembered for the next screens. */
export function adoptSession(client: QueryClient, session: StaffSession): void {
  rememberCsrfToken(session.csrf_token);
  client.setQueryData(SESSION_KEY, session);
}
