// Signing in, and setting a password through a one-time link (docs/dashboard.md, "Staff" and "Sessions").
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { LinkInfoSchema, StaffSessionSchema } from '../../contract/staff.js';
import { Button } from '../ui/button.js';
import { ErrorSummary } from '../ui/error-summary.js';
import { TextField } from '../ui/text-field.js';
import { ApiFailure, request } from './admin-api.js';
import { failureOf, summaryOf } from './kit/form-failure.js';
import { adoptSession } from './admin-queries.js';
import { navigate } from './navigation.js';
import { ScreenHeading } from './screen-heading.js';

const FIELD_ORDER = ['email', 'name', 'password'] as const;

/** A form of the signed-out screens: its heading, what the server refused, its fields and its one button. */
function StaffForm(props: {
  title: string;
  intro?: ReactNode;
  failure: unknown;
  pending: boolean;
  action: string;
  pendingAction: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { message, fields } = failureOf(props.failure);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <section className="admin-card admin-card--narrow">
      <ScreenHeading>{props.title}</ScreenHeading>
      {props.intro ? <p>{props.intro}</p> : null}
      <form onSubmit={submit} noValidate className="admin-form">
        <ErrorSummary errors={summaryOf(fields, FIELD_ORDER)} message={message} />
        {props.children}
        <Button type="submit" disabled={props.pending}>
          {props.pending ? props.pendingAction : props.action}
        </Button>
      </form>
    </section>
  );
}

function EmailField(props: { value: string; onChange: (value: string) => void; failure: unknown }) {
  return (
    <TextField
      name="email"
      label="Email"
      type="email"
      autoComplete="username"
      value={props.value}
      onChange={props.onChange}
      error={failureOf(props.failure).fields.email}
    />
  );
}

export function SignInScreen() {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => request(StaffSessionSchema, 'POST', '/admin/api/session', { email, password }),
    onSuccess: (session) => {
      adoptSession(client, session);
      navigate('/admin');
    },
  });
  return (
    <StaffForm
      title="Sign in"
      failure={signIn.error}
      pending={signIn.isPending}
      action="Sign in"
      pendingAction="Signing in…"
      onSubmit={() => signIn.mutate()}
    >
      <EmailField value={email} onChange={setEmail} failure={signIn.error} />
      <TextField
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={failureOf(signIn.error).fields.password}
      />
    </StaffForm>
  );
}

/** The link's secret, taken out of the address at once so it stays in no history entry. */
function takeLinkSecret(): string {
  const secret = window.location.hash.slice(1);
  if (secret) window.history.replaceState(null, '', '/admin/link');
  return secret;
}

export function LinkScreen() {
  const client = useQueryClient();
  const [token] = useState(takeLinkSecret);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const link = useQuery({
    queryKey: ['link', token],
    queryFn: () => request(LinkInfoSchema, 'POST', '/admin/api/links/inspect', { token }),
    enabled: token !== '',
  });
  const complete = useMutation({
    mutationFn: () =>
      request(StaffSessionSchema, 'POST', '/admin/api/links/complete', {
        token,
        password,
        ...(link.data?.email === null ? { email, name } : name ? { name } : {}),
      }),
    onSuccess: (session) => {
      adoptSession(client, session);
      navigate('/admin');
    },
  });
  if (token === '' || link.error) {
    return (
      <section className="admin-card admin-card--narrow">
        <ScreenHeading>This link does not work</ScreenHeading>
        <p role="alert">
          {link.error instanceof ApiFailure
            ? link.error.message
            : 'The link is not complete: open it again from its message.'}
        </p>
        <p>
          <a href="/admin/sign-in">Sign in</a> if you have a password already.
        </p>
      </section>
    );
  }
  if (!link.data)
    return (
      <p className="loading" role="status">
        Checking your link…
      </p>
    );
  const firstOwner = link.data.email === null;
  const { fields } = failureOf(complete.error);
  return (
    <StaffForm
      title={firstOwner ? 'Set up your dashboard' : 'Set your password'}
      intro={
        firstOwner
          ? `You are the owner of ${link.data.organization_name}. Give the email you will sign in with, and a password.`
          : `For ${link.data.email} at ${link.data.organization_name}.`
      }
      failure={complete.error}
      pending={complete.isPending}
      action="Save and sign in"
      pendingAction="Saving…"
      onSubmit={() => complete.mutate()}
    >
      {firstOwner ? <EmailField value={email} onChange={setEmail} failure={complete.error} /> : null}
      <TextField
        name="name"
        label="Your name"
        autoComplete="name"
        value={name}
        onChange={setName}
        error={fields.name}
        required={firstOwner}
      />
      <TextField
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters."
        value={password}
        onChange={setPassword}
        error={fields.password}
      />
    </StaffForm>
  );
}
