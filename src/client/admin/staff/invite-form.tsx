// Inviting a member of staff by email (docs/dashboard.md, "Staff"): the member is made at once, without a password,
// and an email with a one-time link to set one is queued.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { StaffMember } from '../../../contract/staff.js';
import { Button } from '../../ui/button.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { useAnnounce } from '../../ui/live-region.js';
import { RadioGroup } from '../../ui/radio-group.js';
import { TextField } from '../../ui/text-field.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { inviteMember, STAFF_KEY } from './staff-queries.js';

const FIELDS = ['email', 'name', 'role'] as const;

const ROLES = [
  { value: 'staff', label: 'Staff: orders, subscriptions, refunds, the catalogue, shipping and tax' },
  { value: 'owner', label: 'Owner: everything, also settings, developers and staff' },
] as const;

function invitedText(member: StaffMember): string {
  const who = member.name ? `${member.name} (${member.email})` : member.email;
  return `${who} is invited as ${member.role}. The invitation email is queued: it brings a link to set a password, which works for 7 days.`;
}

export function InviteForm() {
  const client = useQueryClient();
  const announce = useAnnounce();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState('staff');
  const [invited, setInvited] = useState<string | null>(null);
  const invite = useMutation({
    mutationFn: () => inviteMember({ email, role, ...(name.trim() ? { name } : {}) }),
    onMutate: () => setInvited(null),
    onSuccess: async (member) => {
      const said = invitedText(member);
      setInvited(said);
      announce(said);
      setEmail('');
      setName('');
      setRole('staff');
      await client.invalidateQueries({ queryKey: STAFF_KEY });
    },
  });
  const { message, fields } = failureOf(invite.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <section className="admin-card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a member</h2>
      <form className="admin-form staff-form" noValidate onSubmit={submit} aria-labelledby="invite-heading">
        <ErrorSummary errors={summaryOf(fields, FIELDS)} message={message} />
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={setEmail}
          error={fields.email}
        />
        <TextField
          name="name"
          label="Name"
          autoComplete="off"
          value={name}
          onChange={setName}
          error={fields.name}
          required={false}
          maxLength={100}
        />
        <RadioGroup
          name="role"
          legend="Role"
          value={role}
          choices={ROLES}
          onChange={setRole}
          error={fields.role}
        />
        <div className="admin-actions">
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? 'Inviting…' : 'Invite'}
          </Button>
        </div>
        {invited ? <p className="staff-done">{invited}</p> : null}
      </form>
    </section>
  );
}
