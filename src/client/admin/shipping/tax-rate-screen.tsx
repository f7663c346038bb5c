// A tax rate's screen (/admin/shipping/tax-rates/<id|new>): every field of CreateTaxRateSchema.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TaxRate } from '../../../contract/merchant.js';
import { TextField } from '../../ui/text-field.js';
import { AdminLink } from '../kit/admin-link.js';
import { AuditTrail } from '../kit/audit-trail.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { numberOrText, optionalText } from '../settings/field-values.js';
import { errorsOf, ObjectForm } from './object-form.js';
import { useObjectSave } from './use-object-save.js';
import { readTaxRate, saveTaxRate, TAX_RATES_KEY } from './shipping-queries.js';

const FIELDS = ['country', 'state', 'rate', 'name'] as const;

function placeOf(rate: TaxRate): string {
  return rate.state ? `${rate.country}, ${rate.state}` : rate.country;
}

function TaxRateForm({ rate }: { rate: TaxRate | null }) {
  const [country, setCountry] = useState(rate?.country ?? '');
  const [state, setState] = useState(rate?.state ?? '');
  const [percent, setPercent] = useState(rate ? String(rate.rate) : '');
  const [name, setName] = useState(rate?.name ?? '');
  const { save, saved } = useObjectSave({
    listKey: TAX_RATES_KEY,
    auditType: 'tax_rate',
    basePath: '/admin/shipping/tax-rates',
    isNew: rate === null,
    send: () =>
      saveTaxRate(rate?.id ?? null, {
        country: country.trim().toUpperCase(),
        state: optionalText(state.toUpperCase()),
        rate: numberOrText(percent),
        name: name.trim(),
      }),
    saidOf: (answer) => `Tax rate for ${placeOf(answer)} saved.`,
  });
  const { errors } = errorsOf(save.error, FIELDS);
  return (
    <section className="admin-card" aria-labelledby="rate-form-heading">
      <h2 id="rate-form-heading">{rate ? 'Change the rate' : 'The new rate'}</h2>
      <ObjectForm
        labelledBy="rate-form-heading"
        error={save.error}
        fieldNames={FIELDS}
        pending={save.isPending}
        action={rate ? 'Save the rate' : 'Create the rate'}
        saved={saved}
        onSubmit={() => save.mutate()}
      >
        <TextField
          name="country"
          label="Country"
          hint="Its two-letter ISO code, such as US."
          autoComplete="off"
          value={country}
          onChange={setCountry}
          error={errors.country}
          maxLength={2}
        />
        <TextField
          name="state"
          label="State"
          hint="Its code, such as TX, for a rate of one state; empty for the whole country. A state's rate wins over its country's."
          autoComplete="off"
          value={state}
          onChange={setState}
          error={errors.state}
          required={false}
          maxLength={3}
        />
        <TextField
          name="rate"
          label="Rate (percent)"
          hint="0 to 100, up to 4 decimals, such as 8.875."
          autoComplete="off"
          inputMode="decimal"
          value={percent}
          onChange={setPercent}
          error={errors.rate}
        />
        <TextField
          name="name"
          label="Name"
          hint="How the rate is named for you, such as “Texas sales tax”."
          autoComplete="off"
          value={name}
          onChange={setName}
          error={errors.name}
          required={false}
          maxLength={100}
        />
      </ObjectForm>
    </section>
  );
}

export function TaxRateScreen({ id, created }: { id: number | null; created: boolean }) {
  const rate = useQuery({
    queryKey: [...TAX_RATES_KEY, id],
    queryFn: () => readTaxRate(id ?? 0),
    enabled: id !== null,
  });
  const title = id === null ? 'New tax rate' : rate.data ? `Tax rate for ${placeOf(rate.data)}` : 'Tax rate';
  return (
    <>
      <ScreenHeading>{title}</ScreenHeading>
      <p>
        <AdminLink to="/admin/shipping">Back to shipping and tax</AdminLink>
      </p>
      {created ? <p className="shipping-saved">The tax rate is created.</p> : null}
      {id !== null && !rate.data ? (
        <QueryState error={rate.error} loading="Reading the tax rate…" />
      ) : (
        <div className="admin-stack">
          <TaxRateForm key={id ?? 'new'} rate={id === null ? null : (rate.data ?? null)} />
          {id !== null ? <AuditTrail objectType="tax_rate" objectId={id} /> : null}
        </div>
      )}
    </>
  );
}
