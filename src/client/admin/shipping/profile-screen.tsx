// A shipping profile's screen (/admin/shipping/profiles/<id|new>): every field of CreateShippingProfileSchema.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ShippingProfile } from '../../../contract/merchant.js';
import { Checkbox } from '../../ui/checkbox.js';
import { TextField } from '../../ui/text-field.js';
import { AdminLink } from '../kit/admin-link.js';
import { AuditTrail } from '../kit/audit-trail.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { listOfText, numberOrText, optionalNumber, textOfList } from '../settings/field-values.js';
import { ORGANIZATION_KEY, readOrganization } from '../settings/organization-query.js';
import { errorsOf, ObjectForm } from './object-form.js';
import { useObjectSave } from './use-object-save.js';
import { PROFILES_KEY, readProfile, saveProfile } from './shipping-queries.js';

const FIELDS = ['name', 'countries', 'price', 'free_over', 'active'] as const;

function ProfileForm({ profile, currency }: { profile: ShippingProfile | null; currency: string }) {
  const [name, setName] = useState(profile?.name ?? '');
  const [countries, setCountries] = useState(textOfList(profile?.countries ?? []));
  const [price, setPrice] = useState(profile ? String(profile.price) : '');
  const [freeOver, setFreeOver] = useState(
    profile === null || profile.free_over === null ? '' : String(profile.free_over),
  );
  const [active, setActive] = useState(profile?.active ?? true);
  const { save, saved } = useObjectSave({
    listKey: PROFILES_KEY,
    auditType: 'shipping_profile',
    basePath: '/admin/shipping/profiles',
    isNew: profile === null,
    send: () =>
      saveProfile(profile?.id ?? null, {
        name,
        countries: listOfText(countries).map((code) => code.toUpperCase()),
        price: numberOrText(price),
        free_over: optionalNumber(freeOver),
        active,
      }),
    saidOf: (answer) =>
      profile ? `Shipping profile ${answer.name} saved.` : `Shipping profile ${answer.name} created.`,
  });
  const { errors } = errorsOf(save.error, FIELDS);
  return (
    <section className="admin-card" aria-labelledby="profile-form-heading">
      <h2 id="profile-form-heading">{profile ? 'Change the profile' : 'The new profile'}</h2>
      <ObjectForm
        labelledBy="profile-form-heading"
        error={save.error}
        fieldNames={FIELDS}
        pending={save.isPending}
        action={profile ? 'Save the profile' : 'Create the profile'}
        saved={saved}
        onSubmit={() => save.mutate()}
      >
        <TextField
          name="name"
          label="Name"
          hint="Shoppers see it as the shipping method, such as “Standard (3 to 5 days)”."
          autoComplete="off"
          value={name}
          onChange={setName}
          error={errors.name}
          maxLength={200}
        />
        <TextField
          name="countries"
          label="Countries"
          hint="Two-letter ISO codes, separated by commas: US, CA."
          autoComplete="off"
          value={countries}
          onChange={setCountries}
          error={errors.countries}
        />
        <TextField
          name="price"
          label={`Price (${currency})`}
          hint="In the store's currency, such as 4.99."
          autoComplete="off"
          inputMode="decimal"
          value={price}
          onChange={setPrice}
          error={errors.price}
        />
        <TextField
          name="free_over"
          label={`Free over (${currency})`}
          hint="Shipping is free once the items after discount reach this amount. Leave it empty to always charge."
          autoComplete="off"
          inputMode="decimal"
          value={freeOver}
          onChange={setFreeOver}
          error={errors.free_over}
          required={false}
        />
        <Checkbox
          name="active"
          label="Offered on the checkout"
          checked={active}
          onChange={setActive}
          error={errors.active}
        />
      </ObjectForm>
    </section>
  );
}

export function ProfileScreen({ id, created }: { id: number | null; created: boolean }) {
  const organization = useQuery({ queryKey: ORGANIZATION_KEY, queryFn: readOrganization });
  const profile = useQuery({
    queryKey: [...PROFILES_KEY, id],
    queryFn: () => readProfile(id ?? 0),
    enabled: id !== null,
  });
  const ready = organization.data && (id === null || profile.data);
  const title = id === null ? 'New shipping profile' : profile.data ? profile.data.name : 'Shipping profile';
  return (
    <>
      <ScreenHeading>{title}</ScreenHeading>
      <p>
        <AdminLink to="/admin/shipping">Back to shipping and tax</AdminLink>
      </p>
      {created ? <p className="shipping-saved">The shipping profile is created.</p> : null}
      {!ready || !organization.data ? (
        <QueryState error={organization.error ?? profile.error} loading="Reading the profile…" />
      ) : (
        <div className="admin-stack">
          <ProfileForm
            key={id ?? 'new'}
            profile={id === null ? null : (profile.data ?? null)}
            currency={organization.data.currency}
          />
          {id !== null ? <AuditTrail objectType="shipping_profile" objectId={id} /> : null}
        </div>
      )}
    </>
  );
}
