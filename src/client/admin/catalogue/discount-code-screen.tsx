// A discount code's screen (docs/dashboard.md, "Catalogue"): one form to make a code or change it; an edit sends
// only what changed. A code that exists already is said by the code's field.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { DiscountCode } from '../../../contract/merchant.js';
import { Checkbox } from '../../ui/checkbox.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { useAnnounce } from '../../ui/live-region.js';
import { RadioGroup } from '../../ui/radio-group.js';
import { TextField } from '../../ui/text-field.js';
import { navigate } from '../navigation.js';
import { AuditTrail, auditKey } from '../kit/audit-trail.js';
import { summaryOf } from '../kit/form-failure.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { usesText } from './catalogue-words.js';
import { codeKey, codesKey, readCode, saveCode } from './catalogue-queries.js';
import {
  CODE_FIELD_ORDER,
  codeBody,
  codeFailure,
  codeFormValues,
  NEW_CODE,
  type CodeFormValues,
} from './discount-code-form-values.js';
import { FieldGroup, FormFooter, ObjectLoading } from './form-parts.js';
import { changedFields, withoutEmpty } from './form-values.js';
import { useAllOffers } from './use-all-offers.js';
import { useCurrency } from './use-currency.js';

function CodeForm({ code }: { code: DiscountCode | null }) {
  const client = useQueryClient();
  const announce = useAnnounce();
  const currency = useCurrency() ?? '';
  const offers = useAllOffers();
  const [values, setValues] = useState<CodeFormValues>(() => (code ? codeFormValues(code) : NEW_CODE));
  const [saved, setSaved] = useState<string | null>(null);
  const set =
    <K extends keyof CodeFormValues>(key: K) =>
    (value: CodeFormValues[K]) => {
      setSaved(null);
      setValues((current) => ({ ...current, [key]: value }));
    };

  const save = useMutation({
    mutationFn: () => {
      const body = codeBody(values);
      if (code === null) return saveCode(null, withoutEmpty(body));
      const changed = changedFields(codeBody(codeFormValues(code)), body);
      return Object.keys(changed).length === 0 ? Promise.resolve(null) : saveCode(code.id, changed);
    },
    onSuccess: (answer) => {
      if (answer === null) {
        setSaved('Nothing changed.');
        announce('Nothing changed.');
        return;
      }
      void client.invalidateQueries({ queryKey: codesKey });
      client.setQueryData(codeKey(answer.id), answer);
      void client.invalidateQueries({ queryKey: auditKey('discount_code', answer.id) });
      if (code === null) {
        announce(`Discount code ${answer.code} made.`);
        navigate(`/admin/catalogue/discount-codes/${answer.id}`);
      } else {
        setValues(codeFormValues(answer));
        setSaved('Saved.');
        announce(`Discount code ${answer.code} saved.`);
      }
    },
  });
  const { message, fields } = codeFailure(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    save.mutate();
  };
  const toggleOffer = (id: number, checked: boolean) =>
    set('offer_ids')(checked ? [...values.offer_ids, id] : values.offer_ids.filter((each) => each !== id));

  return (
    <form onSubmit={submit} noValidate className="admin-form admin-card">
      <ErrorSummary errors={summaryOf(fields, CODE_FIELD_ORDER)} message={message} />
      <div className="admin-grid">
        <TextField
          name="code"
          label="Code"
          hint="What the shopper types: letters, digits, dashes or underscores. Kept in capitals."
          autoComplete="off"
          value={values.code}
          onChange={set('code')}
          error={fields.code}
        />
      </div>
      <RadioGroup
        name="kind"
        legend="Kind of discount"
        value={values.kind}
        choices={[
          { value: 'percent', label: 'A percentage off' },
          { value: 'fixed', label: 'An amount off' },
        ]}
        onChange={(kind) => set('kind')(kind === 'fixed' ? 'fixed' : 'percent')}
        error={fields.kind}
      />
      <div className="admin-grid">
        {values.kind === 'percent' ? (
          <TextField
            name="percent_off"
            label="Percent off"
            hint="From 0.01 to 100."
            inputMode="decimal"
            autoComplete="off"
            value={values.percent_off}
            onChange={set('percent_off')}
            error={fields.percent_off}
          />
        ) : (
          <TextField
            name="amount_off"
            label={`Amount off (${currency})`}
            inputMode="decimal"
            autoComplete="off"
            value={values.amount_off}
            onChange={set('amount_off')}
            error={fields.amount_off}
          />
        )}
        <TextField
          name="min_subtotal"
          label={`Minimum order (${currency})`}
          hint="The items' subtotal the order must reach; 0 for none."
          inputMode="decimal"
          autoComplete="off"
          value={values.min_subtotal}
          onChange={set('min_subtotal')}
          error={fields.min_subtotal}
        />
        <TextField
          name="usage_limit"
          label="Usage limit"
          required={false}
          hint="How many orders may use it; empty for no limit."
          inputMode="numeric"
          autoComplete="off"
          value={values.usage_limit}
          onChange={set('usage_limit')}
          error={fields.usage_limit}
        />
        <TextField
          name="starts_at"
          label="Starts"
          type="datetime-local"
          required={false}
          hint="In your time zone; empty to start at once."
          autoComplete="off"
          value={values.starts_at}
          onChange={set('starts_at')}
          error={fields.starts_at}
        />
        <TextField
          name="ends_at"
          label="Ends"
          type="datetime-local"
          required={false}
          hint="In your time zone; empty to never end."
          autoComplete="off"
          value={values.ends_at}
          onChange={set('ends_at')}
          error={fields.ends_at}
        />
      </div>
      <FieldGroup legend="Only for these offers" name="offer_ids" error={fields.offer_ids}>
        <p className="field__hint">None chosen: the code takes off the whole order.</p>
        {!offers.data ? (
          <QueryState error={offers.error} loading="Reading the offers…" />
        ) : offers.data.data.length === 0 ? (
          <p>The store has no offers yet.</p>
        ) : (
          <div className="catalogue-choices">
            {offers.data.data.map((offer) => (
              <Checkbox
                key={offer.id}
                name={`offer_ids.${offer.id}`}
                label={`${offer.offer_name} (${offer.item_name})`}
                checked={values.offer_ids.includes(offer.id)}
                onChange={(checked) => toggleOffer(offer.id, checked)}
              />
            ))}
          </div>
        )}
      </FieldGroup>
      <Checkbox
        name="active"
        label="Active: shoppers may use it"
        checked={values.active}
        onChange={set('active')}
        error={fields.active}
      />
      <FormFooter pending={save.isPending} action={code ? 'Save changes' : 'Make the code'} saved={saved} />
    </form>
  );
}

export function DiscountCodeScreen({ id }: { id: number | null }) {
  const code = useQuery({
    queryKey: codeKey(id ?? 0),
    queryFn: () => readCode(id ?? 0),
    enabled: id !== null,
  });
  if (id === null) {
    return (
      <div className="admin-stack">
        <ScreenHeading>New discount code</ScreenHeading>
        <CodeForm code={null} />
      </div>
    );
  }
  if (!code.data) return <ObjectLoading what="discount code" error={code.error} />;
  return (
    <div className="admin-stack">
      <ScreenHeading>{`Discount code ${code.data.code}`}</ScreenHeading>
      <p>
        Used: {usesText(code.data)}
        {code.data.usage_limit === null ? '' : ' allowed'} (completed orders).
      </p>
      <CodeForm key={code.data.id} code={code.data} />
      <AuditTrail objectType="discount_code" objectId={id} />
    </div>
  );
}
