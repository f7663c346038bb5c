// One form of the Settings screen (docs/dashboard.md, "Settings"): it sends only its own fields to
// PATCH /organization, shows what the server refused by each field and in a summary, and says when it is saved.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { OrganizationSchema, type UpdateOrganization } from '../../../contract/merchant.js';
import { Button } from '../../ui/button.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { useAnnounce } from '../../ui/live-region.js';
import { ApiFailure, request } from '../admin-api.js';
import { SESSION_KEY } from '../admin-queries.js';
import { auditKey } from '../kit/audit-trail.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { fieldErrorsFor } from './field-values.js';
import { ORGANIZATION_KEY, ORGANIZATION_URL } from './organization-query.js';

export function SettingsForm(props: {
  /** the section's id: its heading is `${id}-heading` */
  id: string;
  title: string;
  intro?: ReactNode;
  /** the form's field names, as the API names them ("legal.terms_url"), in the order it shows them */
  fieldNames: readonly string[];
  /** what the form sends: its own fields only */
  patch: () => UpdateOrganization | Record<string, unknown>;
  children: (errors: Record<string, string>) => ReactNode;
}) {
  const client = useQueryClient();
  const announce = useAnnounce();
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => request(OrganizationSchema, 'PATCH', ORGANIZATION_URL, props.patch()),
    onMutate: () => setSavedAt(null),
    // A conflict (the currency locked by a cart made meanwhile) means the page's copy is old: read it again.
    onError: (error) => {
      if (error instanceof ApiFailure && error.status === 409)
        void client.invalidateQueries({ queryKey: ORGANIZATION_KEY });
    },
    onSuccess: async (organization) => {
      client.setQueryData(ORGANIZATION_KEY, organization);
      setSavedAt(new Date().toLocaleTimeString('en-US', { timeStyle: 'short' }));
      announce(`${props.title}: saved.`);
      await Promise.all([
        client.invalidateQueries({ queryKey: SESSION_KEY }),
        client.invalidateQueries({ queryKey: auditKey('organization', organization.id) }),
      ]);
    },
  });
  const { message, fields } = failureOf(save.error);
  const errors = fieldErrorsFor(fields, props.fieldNames);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section className="admin-card" aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>{props.title}</h2>
      {props.intro ? <p className="settings-intro">{props.intro}</p> : null}
      <form
        className="admin-form settings-form"
        noValidate
        onSubmit={submit}
        aria-labelledby={`${props.id}-heading`}
      >
        <ErrorSummary errors={summaryOf(errors, props.fieldNames)} message={message} />
        {props.children(errors)}
        <div className="admin-actions">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : `Save ${props.title.toLowerCase()}`}
          </Button>
          {savedAt ? <p className="settings-saved">Saved at {savedAt}.</p> : null}
        </div>
      </form>
    </section>
  );
}
