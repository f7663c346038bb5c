// Staff members, their links and sessions, failed sign-ins and the audit trail (migration 0019).
import type { Queryable } from '../../platform/db/database.js';
import type { StaffRole } from './staff-rules.js';

export interface StaffMemberRow {
  id: number;
  organization_id: number;
  email: string;
  name: string;
  role: StaffRole;
  password_hash: string | null;
  created_at: Date;
  updated_at: Date;
  removed_at: Date | null;
}

export interface StaffLinkRow {
  token_hash: string;
  organization_id: number;
  staff_member_id: number | null;
  purpose: 'owner_setup' | 'invite';
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface StaffSessionRow {
  token_hash: string;
  organization_id: number;
  staff_member_id: number;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

export interface AuditEventRow {
  id: number;
  organization_id: number;
  staff_member_id: number;
  action: string;
  status_code: number;
  object_type: string | null;
  object_id: string | null;
  created_at: Date;
}

export async function findMemberByEmail(
  db: Queryable,
  organizationId: number | null,
  email: string,
): Promise<StaffMemberRow[]> {
  const { rows } = await db.query<StaffMemberRow>(
    `SELECT * FROM staff_members
      WHERE lower(email) = lower($1) AND removed_at IS NULL AND ($2::bigint IS NULL OR organization_id = $2)
      ORDER BY id`,
    [email, organizationId],
  );
  return rows;
}

export async function findMember(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<StaffMemberRow | null> {
  const { rows } = await db.query<StaffMemberRow>(
    'SELECT * FROM staff_members WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL',
    [organizationId, id],
  );
  return rows[0] ?? null;
}

export async function listMembers(db: Queryable, organizationId: number): Promise<StaffMemberRow[]> {
  const { rows } = await db.query<StaffMemberRow>(
    'SELECT * FROM staff_members WHERE organization_id = $1 AND removed_at IS NULL ORDER BY id',
    [organizationId],
  );
  return rows;
}

export async function findOwners(db: Queryable, organizationId: number): Promise<StaffMemberRow[]> {
  const { rows } = await db.query<StaffMemberRow>(
    `SELECT * FROM staff_members WHERE organization_id = $1 AND role = 'owner' AND removed_at IS NULL ORDER BY id`,
    [organizationId],
  );
  return rows;
}

export async function insertMember(
  db: Queryable,
  member: {
    organization_id: number;
    email: string;
    name: string;
    role: StaffRole;
    password_hash: string | null;
  },
  now: Date,
): Promise<StaffMemberRow> {
  const { rows } = await db.query<StaffMemberRow>(
    `INSERT INTO staff_members (organization_id, email, name, role, password_hash, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
    [member.organization_id, member.email, member.name, member.role, member.password_hash, now],
  );
  return rows[0]!;
}

export async function setMemberPassword(
  db: Queryable,
  id: number,
  change: { passwordHash: string; name: string | null },
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE staff_members SET password_hash = $2, name = coalesce($3, name), updated_at = $4 WHERE id = $1`,
    [id, change.passwordHash, change.name, now],
  );
}

export async function removeMember(
  db: Queryable,
  organizationId: number,
  id: number,
  now: Date,
): Promise<void> {
  await db.query(
    'UPDATE staff_members SET removed_at = $3, updated_at = $3 WHERE organization_id = $1 AND id = $2',
    [organizationId, id, now],
  );
  await db.query('DELETE FROM staff_sessions WHERE staff_member_id = $1', [id]);
  await db.query('UPDATE staff_links SET used_at = $2 WHERE staff_member_id = $1 AND used_at IS NULL', [
    id,
    now,
  ]);
}

export async function insertLink(db: Queryable, link: Omit<StaffLinkRow, 'used_at'>): Promise<void> {
  await db.query(
    `INSERT INTO staff_links (token_hash, organization_id, staff_member_id, purpose, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      link.token_hash,
      link.organization_id,
      link.staff_member_id,
      link.purpose,
      link.created_at,
      link.expires_at,
    ],
  );
}

/** Ends the unused links of a purpose (a new one replaces them). */
export async function retireLinks(
  db: Queryable,
  organizationId: number,
  purpose: StaffLinkRow['purpose'],
  staffMemberId: number | null,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE staff_links SET used_at = $4
      WHERE organization_id = $1 AND purpose = $2 AND staff_member_id IS NOT DISTINCT FROM $3 AND used_at IS NULL`,
    [organizationId, purpose, staffMemberId, now],
  );
}

/** The link, locked for its one use. */
export async function lockLink(db: Queryable, tokenHash: string): Promise<StaffLinkRow | null> {
  const { rows } = await db.query<StaffLinkRow>(
    'SELECT * FROM staff_links WHERE token_hash = $1 FOR UPDATE',
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function findLink(db: Queryable, tokenHash: string): Promise<StaffLinkRow | null> {
  const { rows } = await db.query<StaffLinkRow>('SELECT * FROM staff_links WHERE token_hash = $1', [
    tokenHash,
  ]);
  return rows[0] ?? null;
}

export async function markLinkUsed(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('UPDATE staff_links SET used_at = $2 WHERE token_hash = $1', [tokenHash, now]);
}

export async function insertSession(db: Queryable, session: StaffSessionRow): Promise<void> {
  await db.query(
    `INSERT INTO staff_sessions
       (token_hash, organization_id, staff_member_id, csrf_token, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      session.token_hash,
      session.organization_id,
      session.staff_member_id,
      session.csrf_token,
      session.created_at,
      session.last_seen_at,
      session.expires_at,
    ],
  );
}

/** A live session with its member (not removed), or null. */
export async function findLiveSession(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<(StaffSessionRow & { member: StaffMemberRow }) | null> {
  const { rows } = await db.query<StaffSessionRow & { member: StaffMemberRow }>(
    `SELECT s.*, to_jsonb(m) AS member
       FROM staff_sessions s JOIN staff_members m ON m.id = s.staff_member_id
      WHERE s.token_hash = $1 AND s.expires_at > $2 AND m.removed_at IS NULL`,
    [tokenHash, now],
  );
  return rows[0] ?? null;
}

export async function touchSession(
  db: Queryable,
  tokenHash: string,
  now: Date,
  expiresAt: Date,
): Promise<void> {
  await db.query('UPDATE staff_sessions SET last_seen_at = $2, expires_at = $3 WHERE token_hash = $1', [
    tokenHash,
    now,
    expiresAt,
  ]);
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM staff_sessions WHERE token_hash = $1', [tokenHash]);
}

export async function deleteMemberSessions(db: Queryable, staffMemberId: number): Promise<void> {
  await db.query('DELETE FROM staff_sessions WHERE staff_member_id = $1', [staffMemberId]);
}

export async function countSignInFailures(
  db: Queryable,
  input: { email: string; ip: string | null; since: Date },
): Promise<{ byEmail: number; byIp: number }> {
  const { rows } = await db.query<{ by_email: number; by_ip: number }>(
    `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email,
            count(*) FILTER (WHERE $2::text IS NOT NULL AND ip = $2)::int AS by_ip
       FROM staff_sign_in_failures WHERE at > $3 AND (email = $1 OR ip = $2)`,
    [input.email, input.ip, input.since],
  );
  return { byEmail: rows[0]?.by_email ?? 0, byIp: rows[0]?.by_ip ?? 0 };
}

export async function recordSignInFailure(
  db: Queryable,
  input: { email: string; ip: string | null },
  now: Date,
): Promise<void> {
  await db.query('INSERT INTO staff_sign_in_failures (email, ip, at) VALUES ($1, $2, $3)', [
    input.email,
    input.ip,
    now,
  ]);
}

export async function insertAuditEvent(db: Queryable, event: Omit<AuditEventRow, 'id'>): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (organization_id, staff_member_id, action, status_code, object_type, object_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      event.organization_id,
      event.staff_member_id,
      event.action,
      event.status_code,
      event.object_type,
      event.object_id,
      event.created_at,
    ],
  );
}

export async function listAuditEvents(
  db: Queryable,
  organizationId: number,
  filter: { objectType: string | null; objectId: string | null; limit: number },
): Promise<(AuditEventRow & { staff_email: string; staff_name: string })[]> {
  const { rows } = await db.query<AuditEventRow & { staff_email: string; staff_name: string }>(
    `SELECT a.*, m.email AS staff_email, m.name AS staff_name
       FROM audit_events a JOIN staff_members m ON m.id = a.staff_member_id
      WHERE a.organization_id = $1
        AND ($2::text IS NULL OR a.object_type = $2) AND ($3::text IS NULL OR a.object_id = $3)
      ORDER BY a.id DESC LIMIT $4`,
    [organizationId, filter.objectType, filter.objectId, filter.limit],
  );
  return rows;
}

/** The stores no owner can sign in to yet (no owner, or none with a password), oldest first. */
export async function findOrganizationsWithoutOwner(
  db: Queryable,
  limit: number,
): Promise<{ id: number; name: string; public_id: string }[]> {
  const { rows } = await db.query<{ id: number; name: string; public_id: string }>(
    `SELECT o.id, o.name, o.public_id FROM organizations o
      WHERE NOT EXISTS (SELECT 1 FROM staff_members m WHERE m.organization_id = o.id AND m.role = 'owner'
                          AND m.removed_at IS NULL AND m.password_hash IS NOT NULL)
      ORDER BY o.id LIMIT $1`,
    [limit],
  );
  return rows;
}

/**
 * What the dashboard's sign-in leaves behind (the housekeeping): sessions that ended and failures older than the
 * limit's window, which never count again. Answers how many went.
 */
export async function deleteEndedStaffRecords(
  db: Queryable,
  input: { now: Date; failuresBefore: Date },
): Promise<number> {
  const sessions = await db.query<{ n: number }>(
    'WITH gone AS (DELETE FROM staff_sessions WHERE expires_at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [input.now],
  );
  const failures = await db.query<{ n: number }>(
    'WITH gone AS (DELETE FROM staff_sign_in_failures WHERE at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [input.failuresBefore],
  );
  return (sessions.rows[0]?.n ?? 0) + (failures.rows[0]?.n ?? 0);
}
