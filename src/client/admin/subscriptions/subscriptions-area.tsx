// The dashboard's Subscriptions (docs/dashboard.md, "Subscriptions"): the list at /admin/subscriptions (its filters
// in the address's query), one subscription at /admin/subscriptions/<id>.
import { NoSuchScreen } from '../kit/no-such-screen.js';
import type { AreaProps } from '../area.js';
import { useLocation } from '../navigation.js';
import { filtersOf } from './subscription-filters.js';
import { SubscriptionListScreen } from './subscription-list-screen.js';
import { SubscriptionScreen } from './subscription-screen.js';
import './subscriptions.css';

export default function SubscriptionsArea(props: AreaProps) {
  const location = useLocation();
  const [id, ...more] = props.rest;
  if (id === undefined) {
    return <SubscriptionListScreen filters={filtersOf(location.search)} />;
  }
  if (!/^\d{1,15}$/.test(id) || more.length > 0) {
    return (
      <NoSuchScreen
        heading="No such subscription"
        says="This address names no subscription."
        back={{ to: '/admin/subscriptions', label: 'See all subscriptions' }}
      />
    );
  }
  return <SubscriptionScreen key={id} id={Number(id)} />;
}
