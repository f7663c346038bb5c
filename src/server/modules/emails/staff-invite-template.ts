// The invitation to a store's dashboard (docs/dashboard.md, "Staff"): who invited, what it gives, the one-time link.
import { escapeHtml } from '../page/page-shell.js';
import { layout, oneLine, type EmailStore } from './notice-templates.js';
import type { RenderedEmail } from './receipt-template.js';

export interface StaffInviteInput {
  store: EmailStore;
  role: 'owner' | 'staff';
  /** the one-time link that sets the member's password */
  url: string;
  expiresAt: Date;
}

const ROLE_WORDS = {
  owner: 'as an owner: everything, including API keys, webhooks and staff',
  staff: 'as staff: orders, subscriptions, refunds and the catalogue',
} as const;

export function renderStaffInvite(input: StaffInviteInput): RenderedEmail {
  const store = oneLine(input.store.name);
  const subject = oneLine(`You are invited to run ${store}`);
  const said = `You are invited to the dashboard of ${store}, ${ROLE_WORDS[input.role]}.`;
  const until = `The link works once, until ${input.expiresAt.toUTCString()}.`;
  const e = escapeHtml;
  const html = layout(
    input.store,
    subject,
    [
      `<p>${e(said)}</p>`,
      `<p><a href="${e(input.url)}" style="display:inline-block;padding:10px 16px;background:#14213d;color:#fff;text-decoration:none;border-radius:4px">Set your password</a></p>`,
      `<p>${e(until)} If you did not expect it, ignore this email.</p>`,
    ],
    `${store} dashboard`,
  );
  const text = [
    store,
    '',
    said,
    '',
    `Set your password: ${input.url}`,
    '',
    until,
    'If you did not expect it, ignore this email.',
  ];
  return { subject, html, text: `${text.join('\n')}\n` };
}
