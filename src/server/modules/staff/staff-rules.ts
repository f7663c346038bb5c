// The dashboard's rules for staff (docs/dashboard.md): sessions, passwords, sign-in limits, roles and what is audited.

export type StaffRole = 'owner' | 'staff';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A session ends after 2 hours without a request, and 12 hours after sign-in whatever happens. */
export const SESSION_IDLE_MS = 2 * HOUR;
export const SESSION_MAX_MS = 12 * HOUR;
/** A session's last use is written at most this often: every request reads it, few need to write. */
export const SESSION_TOUCH_EVERY_MS = MINUTE;

/** When a session used `now` expires. */
export function sessionExpiresAt(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_IDLE_MS, createdAt.getTime() + SESSION_MAX_MS));
}

/** The owner's first link and a password reset last a day; an invitation a week. */
export const LINK_LIFETIME_MS = { owner_setup: 24 * HOUR, invite: 7 * 24 * HOUR } as const;

/** Failed sign-ins counted over 15 minutes: a few per address (someone guessing it), more per IP (an office). */
export const SIGN_IN_LIMITS = {
  windowMs: 15 * MINUTE,
  failuresPerEmail: 5,
  failuresPerIp: 20,
} as const;

/** Whether a sign-in may be tried now, given the failures counted in the window. */
export function signInAllowed(failures: { byEmail: number; byIp: number }): boolean {
  return failures.byEmail < SIGN_IN_LIMITS.failuresPerEmail && failures.byIp < SIGN_IN_LIMITS.failuresPerIp;
}

export const PASSWORD_LENGTH = { min: 12, max: 200 } as const;

/** What is wrong with a new password, in words a person can act on, or null. */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) return `Use at least ${PASSWORD_LENGTH.min} characters.`;
  if (length > PASSWORD_LENGTH.max) return `Use at most ${PASSWORD_LENGTH.max} characters.`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase())
    return 'Use a password that is not your email.';
  return null;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** What only the owner may read or change: keys, webhooks, staff and the store's settings. */
const OWNER_ONLY = ['api-keys', 'webhook-endpoints', 'staff', 'organization'] as const;

const MERCHANT_API = '/checkout/api/merchant/';

/** The merchant API's resource a route pattern is about (its first segment), or null outside the merchant API. */
function resourceOf(routeUrl: string): string | null {
  if (!routeUrl.startsWith(MERCHANT_API)) return null;
  return routeUrl.slice(MERCHANT_API.length).split('/')[0] ?? null;
}

/** Whether a member of `role` may use a merchant route. Staff run orders, subscriptions, refunds and the catalogue. */
export function staffMayUse(role: StaffRole, method: string, routeUrl: string): boolean {
  if (role === 'owner') return true;
  const resource = resourceOf(routeUrl);
  if (resource === 'organization') return method === 'GET';
  return !OWNER_ONLY.some((area) => area === resource);
}

const OBJECT_TYPES: Record<string, string> = {
  orders: 'order',
  subscriptions: 'subscription',
  offers: 'offer',
  'discount-codes': 'discount_code',
  'checkout-links': 'checkout_link',
  'shipping-profiles': 'shipping_profile',
  'tax-rates': 'tax_rate',
  'webhook-endpoints': 'webhook_endpoint',
  'api-keys': 'api_key',
  staff: 'staff_member',
  organization: 'organization',
  carts: 'cart',
  emails: 'email',
};

/**
 * What a change made through a route is about, for the audit trail shown on that object: the resource of the route
 * and the id in its path (none for a new object: the answer's id is taken then, see `createdObjectId`).
 */
export function auditedObjectOf(
  routeUrl: string,
  params: Record<string, unknown>,
): { type: string; id: string | null } | null {
  const resource = resourceOf(routeUrl);
  const type = resource === null ? undefined : OBJECT_TYPES[resource];
  if (type === undefined) return null;
  const id = params.id;
  return { type, id: typeof id === 'string' || typeof id === 'number' ? String(id) : null };
}
