import { z } from './zod.js';

// The dashboard's staff, sign-in and audit trail (docs/dashboard.md).

const EmailSchema = z
  .string({ error: 'Enter an email address.' })
  .check(
    z.trim(),
    z.maxLength(254, 'Use an email address of at most 254 characters.'),
    z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Enter an email address such as name@example.com.'),
  );
const PasswordSchema = z
  .string({ error: 'Enter a password.' })
  .check(z.maxLength(1000, 'Use a shorter password.'));
const NameSchema = z.string().check(z.trim(), z.maxLength(100, 'Use a name of at most 100 characters.'));

export const StaffRoleSchema = z.enum(['owner', 'staff'], { error: 'A role is owner or staff.' });

export const StaffMemberSchema = z.object({
  id: z.int(),
  email: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  /** false until the member set a password through their link */
  active: z.boolean(),
  created_at: z.string(),
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;
export const StaffMemberListSchema = z.object({ data: z.array(StaffMemberSchema) });

/** POST /admin/api/session */
export const SignInSchema = z.strictObject({ email: EmailSchema, password: PasswordSchema });

/** What the dashboard knows of its session: who, for which store, and the token its changes send back. */
export const StaffSessionSchema = z.object({
  member: StaffMemberSchema,
  organization: z.object({ id: z.string(), name: z.string() }),
  csrf_token: z.string(),
  expires_at: z.string(),
});
export type StaffSession = z.infer<typeof StaffSessionSchema>;

/** POST /admin/api/links/inspect: what a one-time link is for, before it is used. */
export const LinkTokenSchema = z.strictObject({
  token: z
    .string()
    .check(z.regex(/^[\w-]{20,100}$/, 'This link is not complete: open it again from its message.')),
});
export const LinkInfoSchema = z.object({
  purpose: z.enum(['owner_setup', 'invite']),
  /** the member it sets the password of; null for the first owner, who gives their email */
  email: z.nullable(z.string()),
  organization_name: z.string(),
  expires_at: z.string(),
});

/** POST /admin/api/links/complete: sets the password (and, for the first owner, the email and name). */
export const CompleteLinkSchema = z.strictObject({
  token: LinkTokenSchema.shape.token,
  password: PasswordSchema,
  email: z.optional(EmailSchema),
  name: z.optional(NameSchema),
});

/** POST merchant/staff: an invitation by email. */
export const InviteStaffSchema = z.strictObject({
  email: EmailSchema,
  name: z.optional(NameSchema),
  role: z.optional(StaffRoleSchema),
});

export const AuditEventSchema = z.object({
  id: z.int(),
  /** the route used: POST /checkout/api/merchant/orders/:id/refunds */
  action: z.string(),
  status_code: z.int(),
  object_type: z.nullable(z.string()),
  object_id: z.nullable(z.string()),
  staff: z.object({ id: z.int(), email: z.string(), name: z.string() }),
  created_at: z.string(),
});
export const AuditEventListSchema = z.object({ data: z.array(AuditEventSchema) });

export const AuditQuerySchema = z.strictObject({
  object_type: z.optional(z.string().check(z.regex(/^[a-z_]{1,40}$/, 'Use an object type such as order.'))),
  object_id: z.optional(z.string().check(z.regex(/^[\w-]{1,100}$/, 'Use the id of the object.'))),
});
