// Staff sign-in, one-time links, sessions and invitations (docs/dashboard.md).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { StaffMember, StaffSession } from '../../../contract/staff.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { enqueueJob } from '../../platform/jobs/job-queue.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import {
  countSignInFailures,
  deleteMemberSessions,
  deleteSession,
  findLink,
  findLiveSession,
  findMember,
  findMemberByEmail,
  findOrganizationsWithoutOwner,
  findOwners,
  insertLink,
  insertMember,
  insertSession,
  listMembers,
  lockLink,
  markLinkUsed,
  recordSignInFailure,
  removeMember,
  retireLinks,
  setMemberPassword,
  touchSession,
  type StaffLinkRow,
  type StaffMemberRow,
} from './staff-repository.js';
import {
  LINK_LIFETIME_MS,
  normalizeEmail,
  passwordProblem,
  SESSION_TOUCH_EVERY_MS,
  sessionExpiresAt,
  SIGN_IN_LIMITS,
  signInAllowed,
  type StaffRole,
} from './staff-rules.js';

export const STAFF_INVITE_JOB = 'email.staff_invite';

/** A secret for a cookie or a link: 256 bits, URL-safe. Only its hash is stored. */
function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Where a one-time link opens: the secret after "#", so it reaches no server log and no Referer. */
export function staffLinkUrl(publicUrl: string, secret: string): string {
  return `${publicUrl}/admin/link#${secret}`;
}

export function presentMember(
  row: Pick<StaffMemberRow, 'id' | 'email' | 'name' | 'role' | 'password_hash' | 'created_at'>,
): StaffMember {
  return {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    role: row.role,
    active: row.password_hash !== null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Makes a one-time link of `purpose` (retiring that member's earlier unused ones): its URL, shown or sent once. */
export async function issueStaffLink(
  tx: Queryable,
  input: {
    organizationId: number;
    staffMemberId: number | null;
    purpose: StaffLinkRow['purpose'];
    publicUrl: string;
  },
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  await retireLinks(tx, input.organizationId, input.purpose, input.staffMemberId, now);
  const secret = newSecret();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS[input.purpose]);
  await insertLink(tx, {
    token_hash: hashSecret(secret),
    organization_id: input.organizationId,
    staff_member_id: input.staffMemberId,
    purpose: input.purpose,
    created_at: now,
    expires_at: expiresAt,
  });
  return { url: staffLinkUrl(input.publicUrl, secret), expiresAt };
}

/**
 * The owner's link (`npm start` on first start, `npm run admin:link`): sets the first owner's email and password, or
 * a new password for the owner who has one.
 */
export async function issueOwnerLink(
  db: Database,
  organizationId: number,
  publicUrl: string,
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  return db.transaction(async (tx) => {
    const [owner] = await findOwners(tx, organizationId);
    return issueStaffLink(
      tx,
      { organizationId, staffMemberId: owner ? Number(owner.id) : null, purpose: 'owner_setup', publicUrl },
      now,
    );
  });
}

/** Whether the store has no owner who can sign in yet (`npm start` then prints the owner's link). */
export async function ownerNeedsLink(db: Queryable, organizationId: number): Promise<boolean> {
  const owners = await findOwners(db, organizationId);
  return !owners.some((owner) => owner.password_hash !== null);
}

const LINK_GONE =
  'This link was used or has expired. Ask the store’s owner for a new one (the owner: run npm run admin:link).';

function usableLink(link: StaffLinkRow | null, now: Date): StaffLinkRow {
  if (!link || link.used_at !== null || link.expires_at <= now)
    throw new AppError(410, 'link_expired', LINK_GONE);
  return link;
}

export async function inspectLink(
  db: Queryable,
  secret: string,
  now: Date,
): Promise<{
  purpose: StaffLinkRow['purpose'];
  email: string | null;
  organization_name: string;
  expires_at: string;
}> {
  const link = usableLink(await findLink(db, hashSecret(secret)), now);
  const organization = await findOrganizationById(db, Number(link.organization_id));
  const member =
    link.staff_member_id === null
      ? null
      : await findMember(db, Number(link.organization_id), Number(link.staff_member_id));
  return {
    purpose: link.purpose,
    email: member?.email ?? null,
    organization_name: organization?.name ?? '',
    expires_at: link.expires_at.toISOString(),
  };
}

export interface IssuedSession {
  /** the cookie's value: shown once, stored as its hash */
  token: string;
  session: StaffSession;
}

async function startSession(tx: Queryable, member: StaffMemberRow, now: Date): Promise<IssuedSession> {
  const token = newSecret();
  const csrfToken = newSecret();
  const expiresAt = sessionExpiresAt(now, now);
  await insertSession(tx, {
    token_hash: hashSecret(token),
    organization_id: Number(member.organization_id),
    staff_member_id: Number(member.id),
    csrf_token: csrfToken,
    created_at: now,
    last_seen_at: now,
    expires_at: expiresAt,
  });
  const organization = await findOrganizationById(tx, Number(member.organization_id));
  return {
    token,
    session: {
      member: presentMember(member),
      organization: { id: organization?.public_id ?? '', name: organization?.name ?? '' },
      csrf_token: csrfToken,
      expires_at: expiresAt.toISOString(),
    },
  };
}

/** Uses a one-time link: sets the password (the first owner also gives email and name) and signs the member in. */
export async function completeLink(
  db: Database,
  input: { token: string; password: string; email?: string | undefined; name?: string | undefined },
  now: Date,
): Promise<IssuedSession> {
  return db.transaction(async (tx) => {
    const link = usableLink(await lockLink(tx, hashSecret(input.token)), now);
    const organizationId = Number(link.organization_id);
    let member =
      link.staff_member_id === null
        ? null
        : await findMember(tx, organizationId, Number(link.staff_member_id));
    if (link.staff_member_id !== null && !member) throw new AppError(410, 'link_expired', LINK_GONE);
    const email = member?.email ?? input.email;
    if (!email) throw validationError({ email: 'Enter the email address you will sign in with.' });
    const problem = passwordProblem(input.password, email);
    if (problem) throw validationError({ password: problem });
    const passwordHash = await hashPassword(input.password);
    if (member) {
      await setMemberPassword(tx, Number(member.id), { passwordHash, name: input.name ?? null }, now);
      // A new password ends every session of the old one.
      await deleteMemberSessions(tx, Number(member.id));
      member = { ...member, password_hash: passwordHash, name: input.name ?? member.name };
    } else {
      if ((await findMemberByEmail(tx, organizationId, email)).length > 0) {
        throw validationError({ email: 'A member of this store already has this email.' });
      }
      member = await insertMember(
        tx,
        {
          organization_id: organizationId,
          email,
          name: input.name ?? '',
          role: 'owner',
          password_hash: passwordHash,
        },
        now,
      );
    }
    await markLinkUsed(tx, link.token_hash, now);
    return startSession(tx, member, now);
  });
}

const WRONG_SIGN_IN = 'The email or password is not right.';
// Hashed when no member has the email, so a wrong email takes as long as a wrong password.
const NOBODY = hashPassword('no member has this email');

export async function signIn(
  db: Database,
  input: { email: string; password: string; ip: string | null },
  now: Date,
): Promise<IssuedSession> {
  const email = normalizeEmail(input.email);
  const since = new Date(now.getTime() - SIGN_IN_LIMITS.windowMs);
  if (!signInAllowed(await countSignInFailures(db, { email, ip: input.ip, since }))) {
    throw new AppError(429, 'too_many_sign_ins', 'Too many failed sign-ins. Wait 15 minutes and try again.', {
      headers: { 'retry-after': String(SIGN_IN_LIMITS.windowMs / 1000) },
    });
  }
  const members = (await findMemberByEmail(db, null, email)).filter(
    (member) => member.password_hash !== null,
  );
  let signedIn: StaffMemberRow | null = null;
  for (const member of members) {
    if (await verifyPassword(input.password, member.password_hash ?? '')) {
      signedIn = member;
      break;
    }
  }
  if (members.length === 0) await verifyPassword(input.password, await NOBODY);
  if (!signedIn) {
    await recordSignInFailure(db, { email, ip: input.ip }, now);
    throw new AppError(401, 'sign_in_failed', WRONG_SIGN_IN);
  }
  const member = signedIn;
  return db.transaction((tx) => startSession(tx, member, now));
}

export interface LiveSession {
  tokenHash: string;
  organizationId: number;
  member: { id: number; email: string; name: string; role: StaffRole };
  csrfToken: string;
  expiresAt: Date;
}

/** The session a cookie names, kept alive by its use; null when there is none or it ended. */
export async function sessionOf(db: Queryable, token: string, now: Date): Promise<LiveSession | null> {
  const tokenHash = hashSecret(token);
  const row = await findLiveSession(db, tokenHash, now);
  if (!row) return null;
  let expiresAt = row.expires_at;
  if (now.getTime() - row.last_seen_at.getTime() >= SESSION_TOUCH_EVERY_MS) {
    expiresAt = sessionExpiresAt(row.created_at, now);
    await touchSession(db, tokenHash, now, expiresAt);
  }
  return {
    tokenHash,
    organizationId: Number(row.organization_id),
    member: {
      id: Number(row.member.id),
      email: row.member.email,
      name: row.member.name,
      role: row.member.role,
    },
    csrfToken: row.csrf_token,
    expiresAt,
  };
}

export function csrfMatches(session: LiveSession, header: unknown): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export async function signOut(db: Queryable, session: LiveSession): Promise<void> {
  await deleteSession(db, session.tokenHash);
}

export async function listStaff(db: Queryable, organizationId: number): Promise<StaffMember[]> {
  return (await listMembers(db, organizationId)).map(presentMember);
}

/** Invites a member by email: the member now, their link in an email the job writes (docs/emails.md). */
export async function inviteStaff(
  db: Database,
  organizationId: number,
  input: { email: string; name?: string | undefined; role?: StaffRole | undefined },
  now: Date,
): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    if ((await findMemberByEmail(tx, organizationId, input.email)).length > 0) {
      throw new AppError(409, 'staff_exists', 'A member of this store already has this email.');
    }
    const member = await insertMember(
      tx,
      {
        organization_id: organizationId,
        email: input.email,
        name: input.name ?? '',
        role: input.role ?? 'staff',
        password_hash: null,
      },
      now,
    );
    await enqueueJob(
      tx,
      {
        kind: STAFF_INVITE_JOB,
        key: `staff_invite:${member.id}`,
        payload: { staff_member_id: Number(member.id) },
        organizationId,
      },
      now,
    );
    return presentMember(member);
  });
}

/** Removes a member: their sessions and links end now. The last owner stays. */
export async function removeStaff(
  db: Database,
  organizationId: number,
  id: number,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, id);
    if (!member) throw notFound('staff_not_found', `There is no member ${id}.`);
    if (member.role === 'owner') {
      const owners = await findOwners(tx, organizationId);
      if (owners.length <= 1) {
        throw new AppError(
          409,
          'last_owner',
          'The store’s only owner cannot be removed: make another owner first.',
        );
      }
    }
    await removeMember(tx, organizationId, id, now);
  });
}

/**
 * The owner's link of each store no owner can sign in to yet, newly made (`npm start` prints them on each start until
 * an owner has set a password; docs/dashboard.md).
 */
export async function ownerLinksNeeded(
  db: Database,
  publicUrl: string,
  now: Date,
): Promise<{ organization: string; publicId: string; url: string; expiresAt: Date }[]> {
  const stores = await findOrganizationsWithoutOwner(db, 10);
  const links = [];
  for (const store of stores) {
    const link = await issueOwnerLink(db, Number(store.id), publicUrl, now);
    links.push({ organization: store.name, publicId: store.public_id, ...link });
  }
  return links;
}
