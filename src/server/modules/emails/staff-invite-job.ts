// The invitation email's job (docs/emails.md): its one-time link is made when the email is written, once.
import type { JobHandler } from '../../platform/jobs/job-queue.js';
import { findMember } from '../staff/staff-repository.js';
import { issueStaffLink } from '../staff/staff-service.js';
import type { Mailer } from './mailer.js';
import { idOf, noticeHandler, type NoticeOptions } from './notice-jobs.js';
import { renderStaffInvite } from './staff-invite-template.js';

export function staffInviteHandler(mailer: Mailer, options: NoticeOptions): JobHandler {
  return noticeHandler(mailer, options, {
    kind: 'staff_invite',
    keyOf: (job) => `staff_invite:${idOf(job.payload.staff_member_id, 'member')}`,
    async compose(db, organizationId, job, store, now) {
      const member = await findMember(db, organizationId, idOf(job.payload.staff_member_id, 'member'));
      // Removed meanwhile, or already in (an owner's link set the password): nothing to invite to.
      if (!member || member.password_hash !== null) return null;
      const link = await issueStaffLink(
        db,
        {
          organizationId,
          staffMemberId: Number(member.id),
          purpose: 'invite',
          publicUrl: options.publicUrl,
        },
        now,
      );
      return {
        orderId: null,
        to: member.email,
        rendered: renderStaffInvite({ store, role: member.role, url: link.url, expiresAt: link.expiresAt }),
      };
    },
  });
}
