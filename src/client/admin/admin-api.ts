// The dashboard's calls (docs/dashboard.md): the session's cookie goes by itself (same origin, SameSite=Strict); every
// change sends the session's CSRF token; every answer is parsed with the contract's schema.
import type { z } from '../../contract/zod.js';

/** A refusal, in the server's words (its `message`, and its `fields` for a form). */
export class ApiFailure extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;
  constructor(status: number, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

const UNREACHABLE = 'The store could not be reached. Check your connection and try again.';

let csrfToken: string | null = null;

/** The session's token, sent with every change (set when a session is read or made). */
export function rememberCsrfToken(token: string | null): void {
  csrfToken = token;
}

export async function request<S extends z.ZodMiniType>(
  schema: S | null,
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
  url: string,
  body?: unknown,
  /** more headers, such as a refund's Idempotency-Key */
  headers: Record<string, string> = {},
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method !== 'GET' && csrfToken ? { 'x-csrf-token': csrfToken } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiFailure(0, UNREACHABLE);
  }
  const payload: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const answer = (payload ?? {}) as { message?: unknown; fields?: unknown };
    throw new ApiFailure(
      response.status,
      typeof answer.message === 'string' ? answer.message : UNREACHABLE,
      typeof answer.fields === 'object' && answer.fields !== null
        ? (answer.fields as Record<string, string>)
        : {},
    );
  }
  if (schema === null) return undefined as z.output<S>;
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiFailure(response.status, 'The store answered something unexpected.');
  return parsed.data as z.output<S>;
}
