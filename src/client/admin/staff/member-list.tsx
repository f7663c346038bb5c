// The store's members (docs/dashboard.md, "Staff"), each removable behind a confirmation in its row; the only owner
// cannot be removed (the server's 409, said in its row).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { StaffMember } from '../../../contract/staff.js';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';
import { ApiFailure } from '../admin-api.js';
import { SESSION_KEY } from '../admin-queries.js';
import { auditKey } from '../kit/audit-trail.js';
import { formatDate } from '../kit/format.js';
import { QueryState } from '../kit/query-state.js';
import { readStaff, removeMember, STAFF_KEY } from './staff-queries.js';

const nameOf = (member: StaffMember) => member.name || member.email;

function RemoveControl(props: {
  member: StaffMember;
  isYou: boolean;
  onRemoved: (member: StaffMember) => void;
}) {
  const { member } = props;
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const question = useRef<HTMLParagraphElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [wasAsking, setWasAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => removeMember(member.id),
    onSuccess: async () => {
      props.onRemoved(member);
      // Removing yourself ends your own session: reading it again sends you to sign in.
      if (props.isYou) await client.invalidateQueries({ queryKey: SESSION_KEY });
      await Promise.all([
        client.invalidateQueries({ queryKey: STAFF_KEY }),
        client.invalidateQueries({ queryKey: auditKey('staff_member', member.id) }),
      ]);
    },
  });
  useEffect(() => {
    if (asking) question.current?.focus();
    else if (wasAsking) opener.current?.focus();
  }, [asking, wasAsking]);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button--secondary"
        ref={opener}
        onClick={() => {
          remove.reset();
          setAsking(true);
        }}
      >
        Remove<span className="visually-hidden"> {nameOf(member)}</span>
      </button>
    );
  }
  return (
    <div className="staff-confirm" role="group" aria-labelledby={`remove-${member.id}-question`}>
      <p id={`remove-${member.id}-question`} ref={question} tabIndex={-1}>
        {props.isYou
          ? 'Remove yourself? You are signed out at once.'
          : `Remove ${nameOf(member)}? They are signed out at once and their link stops working.`}
      </p>
      {remove.error ? (
        <p role="alert" className="staff-refusal">
          {remove.error instanceof ApiFailure
            ? remove.error.message
            : 'The member could not be removed. Try again.'}
        </p>
      ) : null}
      <div className="admin-actions">
        <Button onClick={() => remove.mutate()} disabled={remove.isPending}>
          {remove.isPending ? 'Removing…' : `Yes, remove ${nameOf(member)}`}
        </Button>
        <Button
          variant="secondary"
          onClick={() => {
            setWasAsking(true);
            setAsking(false);
          }}
        >
          Keep {nameOf(member)}
        </Button>
      </div>
    </div>
  );
}

export function MemberList({ youId }: { youId: number }) {
  const staff = useQuery({ queryKey: STAFF_KEY, queryFn: readStaff });
  const announce = useAnnounce();
  const heading = useRef<HTMLHeadingElement>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const onRemoved = (member: StaffMember) => {
    const said = `${nameOf(member)} is removed.`;
    setRemoved(said);
    announce(said);
    heading.current?.focus();
  };
  return (
    <section className="admin-card" aria-labelledby="members-heading">
      <h2 id="members-heading" ref={heading} tabIndex={-1}>
        Members
      </h2>
      {removed ? <p className="staff-done">{removed}</p> : null}
      {!staff.data ? (
        <QueryState error={staff.error} loading="Reading the members…" />
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" aria-labelledby="members-heading">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {staff.data.data.map((member) => {
                const isYou = member.id === youId;
                return (
                  <tr key={member.id}>
                    <td>
                      {member.name || '—'}
                      {isYou ? <span className="admin-badge staff-you">you</span> : null}
                    </td>
                    <td className="staff-email">{member.email}</td>
                    <td>{member.role === 'owner' ? 'Owner' : 'Staff'}</td>
                    <td>
                      {member.active ? 'Active' : `Invited ${formatDate(member.created_at)}, no password yet`}
                    </td>
                    <td>
                      <RemoveControl member={member} isYou={isYou} onRemoved={onRemoved} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
