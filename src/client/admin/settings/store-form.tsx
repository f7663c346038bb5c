// The store's name, logo and currency (docs/dashboard.md, "Settings").
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { TextField } from '../../ui/text-field.js';
import { optionalText } from './field-values.js';
import { SettingsForm } from './settings-form.js';

const FIELDS = ['name', 'logo_url', 'currency'] as const;

function LogoPreview({ url, name }: { url: string | null; name: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!url) return <p className="settings-logo">No logo: the checkout shows the store's name instead.</p>;
  return (
    <figure className="settings-logo">
      {failed === url ? (
        <p>The saved logo could not be loaded from its address. Check that it is a public image.</p>
      ) : (
        <img src={url} alt={`${name}'s logo`} height={32} onError={() => setFailed(url)} />
      )}
      <figcaption>The saved logo, as the checkout shows it.</figcaption>
    </figure>
  );
}

export function StoreForm({ organization }: { organization: Organization }) {
  const [name, setName] = useState(organization.name);
  const [logoUrl, setLogoUrl] = useState(organization.logo_url ?? '');
  const [currency, setCurrency] = useState(organization.currency);
  const locked = organization.currency_locked;
  return (
    <SettingsForm
      id="store"
      title="Store"
      fieldNames={FIELDS}
      patch={() => ({
        name,
        logo_url: optionalText(logoUrl),
        ...(locked ? {} : { currency: currency.trim().toUpperCase() }),
      })}
    >
      {(errors) => (
        <>
          <TextField
            name="name"
            label="Store name"
            hint="Shoppers see it at the top of the checkout and in their emails."
            autoComplete="organization"
            value={name}
            onChange={setName}
            error={errors.name}
            maxLength={200}
          />
          <TextField
            name="logo_url"
            label="Logo URL"
            hint="A full https address of an image, shown in place of the name. Leave it empty for the name."
            type="url"
            autoComplete="url"
            value={logoUrl}
            onChange={setLogoUrl}
            error={errors.logo_url}
            required={false}
          />
          <LogoPreview url={organization.logo_url} name={organization.name} />
          {locked ? (
            <div className="settings-readonly">
              <p className="field__label">Currency</p>
              <p>
                <strong>{organization.currency}</strong>. It cannot change now that carts exist: their amounts
                were worked out in it.
              </p>
            </div>
          ) : (
            <TextField
              name="currency"
              label="Currency"
              hint="A three-letter ISO 4217 code such as USD or EUR. It can change only until the first cart is made."
              autoComplete="off"
              value={currency}
              onChange={setCurrency}
              error={errors.currency}
              maxLength={3}
            />
          )}
        </>
      )}
    </SettingsForm>
  );
}
