// The dashboard's Settings (docs/dashboard.md, "Settings"): the store, the checkout's options and section order, its
// legal links and subscription terms, and what happens around subscriptions; each form saves its own fields.
import { useQuery } from '@tanstack/react-query';
import type { AreaProps } from '../area.js';
import { AuditTrail } from '../kit/audit-trail.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { AbandonedCheckoutForm } from './abandoned-checkout-form.js';
import { CheckoutOptionsForm } from './checkout-options-form.js';
import { LegalLinksForm } from './legal-links-form.js';
import { LanguagesForm } from './languages-form.js';
import { OrderBumpsForm } from './order-bumps-form.js';
import { ORGANIZATION_KEY, readOrganization } from './organization-query.js';
import { SectionOrderForm } from './section-order-form.js';
import { StoreForm } from './store-form.js';
import { SubscriptionSettingsForm } from './subscription-settings-form.js';
import { SubscriptionTermsForm } from './subscription-terms-form.js';
import './settings.css';

export default function SettingsArea({ session }: AreaProps) {
  const organization = useQuery({ queryKey: ORGANIZATION_KEY, queryFn: readOrganization });
  const data = organization.data;
  return (
    <>
      <ScreenHeading>Settings</ScreenHeading>
      {!data ? (
        <QueryState error={organization.error} loading="Reading the settings…" />
      ) : (
        <div className="admin-stack settings">
          <StoreForm organization={data} />
          <CheckoutOptionsForm organization={data} />
          <SectionOrderForm organization={data} />
          <LegalLinksForm organization={data} />
          <SubscriptionTermsForm organization={data} />
          <SubscriptionSettingsForm organization={data} />
          <AbandonedCheckoutForm organization={data} />
          <OrderBumpsForm organization={data} />
          <LanguagesForm organization={data} />
          <AuditTrail objectType="organization" objectId={session.organization.id} />
        </div>
      )}
    </>
  );
}
