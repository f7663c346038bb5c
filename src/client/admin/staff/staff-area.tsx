// The dashboard's Staff (docs/dashboard.md, "Staff members"): the owner sees the members, invites one by email and
// removes one behind a confirmation.
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';
import { InviteForm } from './invite-form.js';
import { MemberList } from './member-list.js';
import './staff.css';

export default function StaffArea({ session }: AreaProps) {
  return (
    <>
      <ScreenHeading>Staff</ScreenHeading>
      <div className="admin-stack">
        <MemberList youId={session.member.id} />
        <InviteForm />
      </div>
    </>
  );
}
