// The dashboard's Developers, for the owner only (docs/dashboard.md, "Developers"): tabs for the API keys
// (/admin/developers/api-keys), the webhooks (/admin/developers/webhooks[/<id>]) and the email log
// (/admin/developers/emails[/<id>]); /admin/developers opens the first.
import { NoSuchScreen } from '../kit/no-such-screen.js';
import { useEffect } from 'react';
import type { AreaProps } from '../area.js';
import { AdminLink } from '../kit/admin-link.js';
import { navigate, useLocation } from '../navigation.js';
import '../subscriptions/subscriptions.css';
import { ApiKeysScreen } from './api-keys-screen.js';
import { DEVELOPERS_TABS, orderFilterOf, type DevelopersTab } from './developer-words.js';
import { EmailLogScreen } from './email-log-screen.js';
import { EmailScreen } from './email-screen.js';
import { WebhookEndpointScreen } from './webhook-endpoint-screen.js';
import { WebhooksScreen } from './webhooks-screen.js';
import './developers.css';

function Tabs(props: { current: DevelopersTab }) {
  return (
    <nav className="admin-tabs" aria-label="Developers">
      <ul>
        {DEVELOPERS_TABS.map((entry) => (
          <li key={entry.tab}>
            <AdminLink to={`/admin/developers/${entry.tab}`} current={entry.tab === props.current}>
              {entry.label}
            </AdminLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function NoDevelopersScreen() {
  return (
    <NoSuchScreen
      heading="No such screen"
      says="This address is not a Developers screen."
      back={{ to: '/admin/developers', label: 'Open Developers' }}
    />
  );
}

const isId = (text: string | undefined): text is string => text !== undefined && /^\d{1,15}$/.test(text);

function Screen(props: { tab: DevelopersTab; id: string | undefined; search: string }) {
  if (props.tab === 'api-keys') return props.id === undefined ? <ApiKeysScreen /> : <NoDevelopersScreen />;
  if (props.tab === 'webhooks') {
    if (props.id === undefined) return <WebhooksScreen />;
    return isId(props.id) ? (
      <WebhookEndpointScreen key={props.id} id={Number(props.id)} />
    ) : (
      <NoDevelopersScreen />
    );
  }
  if (props.id === undefined) {
    return <EmailLogScreen orderId={orderFilterOf(props.search)} />;
  }
  return isId(props.id) ? <EmailScreen key={props.id} id={Number(props.id)} /> : <NoDevelopersScreen />;
}

export default function DevelopersArea(props: AreaProps) {
  const location = useLocation();
  const [tab, id, ...more] = props.rest;
  useEffect(() => {
    if (tab === undefined) navigate('/admin/developers/api-keys', { replace: true });
  }, [tab]);
  const current = DEVELOPERS_TABS.find((entry) => entry.tab === tab)?.tab ?? 'api-keys';
  const known = tab === undefined || DEVELOPERS_TABS.some((entry) => entry.tab === tab);
  return (
    <>
      <Tabs current={current} />
      {!known || more.length > 0 ? (
        <NoDevelopersScreen />
      ) : (
        <Screen tab={current} id={id} search={location.search} />
      )}
    </>
  );
}
