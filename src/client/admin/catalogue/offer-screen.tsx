// An offer's screen (docs/dashboard.md, "Catalogue"): one form to make an offer or change it, every field of
// CreateOfferSchema; an edit sends only what changed. The offer's changes made in the dashboard are listed under it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Offer } from '../../../contract/merchant.js';
import { Button } from '../../ui/button.js';
import { Checkbox } from '../../ui/checkbox.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { focusField } from '../../ui/field-ids.js';
import { useAnnounce } from '../../ui/live-region.js';
import { TextArea } from '../../ui/text-area.js';
import { TextField } from '../../ui/text-field.js';
import { navigate } from '../navigation.js';
import { AuditTrail, auditKey } from '../kit/audit-trail.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { ScreenHeading } from '../screen-heading.js';
import { offerKey, offersKey, readOffer, saveOffer } from './catalogue-queries.js';
import { FieldGroup, FormFooter, ObjectLoading } from './form-parts.js';
import { changedFields, withoutEmpty } from './form-values.js';
import {
  MAX_OPTIONS,
  NEW_OFFER,
  offerBody,
  offerFieldOrder,
  offerFormValues,
  type OfferFormValues,
} from './offer-form-values.js';
import { OfferTranslationsPart } from './offer-translations-part.js';
import { RecurringPlanFields } from './recurring-plan-fields.js';
import { withOptionAdded, withOptionRemoved } from './offer-translation-values.js';
import { useCurrency } from './use-currency.js';
import { useStoreLanguages } from './use-store-languages.js';

/** Whether the image URL is complete enough to show: a preview of a half-typed address would only fail. */
const showsImage = (url: string) => /^https?:\/\/[^\s/]+\/\S+$/.test(url.trim());

function OfferForm({ offer }: { offer: Offer | null }) {
  const client = useQueryClient();
  const announce = useAnnounce();
  const currency = useCurrency() ?? '';
  const languages = useStoreLanguages();
  const [values, setValues] = useState<OfferFormValues>(() => (offer ? offerFormValues(offer) : NEW_OFFER));
  const [saved, setSaved] = useState<string | null>(null);
  const set =
    <K extends keyof OfferFormValues>(key: K) =>
    (value: OfferFormValues[K]) => {
      setSaved(null);
      setValues((current) => ({ ...current, [key]: value }));
    };

  const save = useMutation({
    mutationFn: () => {
      const body = offerBody(values);
      if (offer === null) return saveOffer(null, withoutEmpty(body));
      const changed = changedFields(offerBody(offerFormValues(offer)), body);
      return Object.keys(changed).length === 0 ? Promise.resolve(null) : saveOffer(offer.id, changed);
    },
    onSuccess: (answer) => {
      if (answer === null) {
        setSaved('Nothing changed.');
        announce('Nothing changed.');
        return;
      }
      void client.invalidateQueries({ queryKey: offersKey });
      client.setQueryData(offerKey(answer.id), answer);
      void client.invalidateQueries({ queryKey: auditKey('offer', answer.id) });
      if (offer === null) {
        announce(`Offer ${answer.offer_name} made.`);
        navigate(`/admin/catalogue/offers/${answer.id}`);
      } else {
        setValues(offerFormValues(answer));
        setSaved('Saved.');
        announce(`Offer ${answer.offer_name} saved.`);
      }
    },
  });
  const { message, fields } = failureOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    save.mutate();
  };

  const setOption = (index: number, part: 'name' | 'value', text: string) =>
    set('item_options')(
      values.item_options.map((option, i) => (i === index ? { ...option, [part]: text } : option)),
    );
  // Each language's option rows follow the offer's, so a translation stays at its option's place.
  const changeOptions = (change: (current: OfferFormValues) => Partial<OfferFormValues>) => {
    setSaved(null);
    setValues((current) => ({ ...current, ...change(current) }));
  };
  const addOption = () => {
    changeOptions((current) => ({
      item_options: [...current.item_options, { name: '', value: '' }],
      translations: withOptionAdded(current.translations),
    }));
    const index = values.item_options.length;
    requestAnimationFrame(() => focusField(`item_options.${index}.name`));
  };
  const removeOption = (index: number) => {
    changeOptions((current) => ({
      item_options: current.item_options.filter((_, i) => i !== index),
      translations: withOptionRemoved(current.translations, index),
    }));
    announce(`Option ${index + 1} removed.`);
    requestAnimationFrame(() => document.getElementById('catalogue-add-option')?.focus());
  };

  return (
    <form onSubmit={submit} noValidate className="admin-form admin-card">
      <ErrorSummary errors={summaryOf(fields, offerFieldOrder(values))} message={message} />
      <div className="admin-grid">
        <TextField
          name="offer_name"
          label="Offer name"
          autoComplete="off"
          value={values.offer_name}
          onChange={set('offer_name')}
          error={fields.offer_name}
        />
        <TextField
          name="offer_title"
          label="Offer title"
          required={false}
          hint="A line the checkout shows under the name."
          autoComplete="off"
          value={values.offer_title}
          onChange={set('offer_title')}
          error={fields.offer_title}
        />
        <TextField
          name="bump_text"
          label="Order bump line"
          required={false}
          hint="When a checkout offers it as an order bump, the line its box shows. Empty: the title, else the name."
          autoComplete="off"
          value={values.bump_text}
          onChange={set('bump_text')}
          error={fields.bump_text}
        />
        <TextField
          name="item_name"
          label="Item name"
          autoComplete="off"
          value={values.item_name}
          onChange={set('item_name')}
          error={fields.item_name}
        />
        <TextField
          name="item_id"
          label="Item id"
          required={false}
          hint="Your own reference, such as a SKU."
          autoComplete="off"
          value={values.item_id}
          onChange={set('item_id')}
          error={fields.item_id}
        />
        <TextField
          name="item_category"
          label="Category"
          required={false}
          autoComplete="off"
          value={values.item_category}
          onChange={set('item_category')}
          error={fields.item_category}
        />
      </div>

      <div className="catalogue-image">
        <TextField
          name="item_image"
          label="Image URL"
          type="url"
          required={false}
          hint="The full http(s) address of the item's picture."
          autoComplete="off"
          value={values.item_image}
          onChange={set('item_image')}
          error={fields.item_image}
        />
        {showsImage(values.item_image) ? (
          <figure className="catalogue-image__preview">
            <img src={values.item_image.trim()} alt={values.item_name || 'The item'} />
            <figcaption>How the image looks</figcaption>
          </figure>
        ) : null}
      </div>

      <FieldGroup legend="Options" name="item_options" error={fields.item_options}>
        <p className="field__hint">
          Up to {MAX_OPTIONS}, such as Size: 340 g. The checkout shows them with the item.
        </p>
        {values.item_options.map((option, index) => (
          <div className="catalogue-row" key={index}>
            <TextField
              name={`item_options.${index}.name`}
              label={`Option ${index + 1} name`}
              autoComplete="off"
              value={option.name}
              onChange={(text) => setOption(index, 'name', text)}
              error={fields[`item_options.${index}.name`]}
            />
            <TextField
              name={`item_options.${index}.value`}
              label={`Option ${index + 1} value`}
              autoComplete="off"
              value={option.value}
              onChange={(text) => setOption(index, 'value', text)}
              error={fields[`item_options.${index}.value`]}
            />
            <Button variant="secondary" onClick={() => removeOption(index)}>
              Remove option {index + 1}
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          id="catalogue-add-option"
          onClick={addOption}
          disabled={values.item_options.length >= MAX_OPTIONS}
        >
          Add an option
        </Button>
      </FieldGroup>

      <FieldGroup legend="Price" name="pricing">
        <div className="admin-grid">
          <TextField
            name="price"
            label={`Price (${currency})`}
            inputMode="decimal"
            autoComplete="off"
            value={values.price}
            onChange={set('price')}
            error={fields.price}
          />
        </div>
        <Checkbox
          name="is_recurring"
          label="Recurring: charged again at an interval (a subscription)"
          checked={values.is_recurring}
          onChange={set('is_recurring')}
          error={fields.is_recurring}
        />
        {values.is_recurring ? (
          <RecurringPlanFields values={values} set={set} fields={fields} currency={currency} />
        ) : (
          <>
            <Checkbox
              name="subscribe_and_save"
              label="Subscribe and save: the shopper may subscribe instead of buying once"
              checked={values.has_subscribe_and_save}
              onChange={set('has_subscribe_and_save')}
              error={fields.subscribe_and_save}
            />
            {values.has_subscribe_and_save ? (
              <div className="admin-grid">
                <TextField
                  name="subscribe_and_save.interval_days"
                  label="Days between deliveries"
                  inputMode="numeric"
                  autoComplete="off"
                  value={values.subscribe_interval_days}
                  onChange={set('subscribe_interval_days')}
                  error={fields['subscribe_and_save.interval_days']}
                />
                <TextField
                  name="subscribe_and_save.percent_off"
                  label="Percent off (1 to 90)"
                  hint="Taken off the price of every delivery, rounded to the cent."
                  inputMode="numeric"
                  autoComplete="off"
                  value={values.subscribe_percent_off}
                  onChange={set('subscribe_percent_off')}
                  error={fields['subscribe_and_save.percent_off']}
                />
              </div>
            ) : null}
          </>
        )}
      </FieldGroup>

      <FieldGroup legend="First order" name="override">
        <p className="field__hint">
          Another item for the first order only, such as a starter kit; empty to send the item above.
        </p>
        <div className="admin-grid">
          <TextField
            name="override_initial_item_id"
            label="First order's item id"
            required={false}
            autoComplete="off"
            value={values.override_initial_item_id}
            onChange={set('override_initial_item_id')}
            error={fields.override_initial_item_id}
          />
          <TextField
            name="override_initial_item_name"
            label="First order's item name"
            required={false}
            autoComplete="off"
            value={values.override_initial_item_name}
            onChange={set('override_initial_item_name')}
            error={fields.override_initial_item_name}
          />
        </div>
      </FieldGroup>

      <FieldGroup legend="Gifts, tax and delivery" name="delivery">
        <Checkbox
          name="is_giftable"
          label="Can be sent as a gift"
          checked={values.is_giftable}
          onChange={set('is_giftable')}
          error={fields.is_giftable}
        />
        <Checkbox
          name="is_taxable"
          label="Taxable"
          checked={values.is_taxable}
          onChange={set('is_taxable')}
          error={fields.is_taxable}
        />
        <Checkbox
          name="requires_shipping"
          label="Needs shipping"
          checked={values.requires_shipping}
          onChange={set('requires_shipping')}
          error={fields.requires_shipping}
        />
        <div className="admin-grid">
          <TextField
            name="shipping_price"
            label={`Shipping per unit (${currency})`}
            hint="Charged for each unit, on top of the shipping method's price."
            inputMode="decimal"
            autoComplete="off"
            value={values.shipping_price}
            onChange={set('shipping_price')}
            error={fields.shipping_price}
          />
        </div>
        <Checkbox
          name="digital_access"
          label="Used online: the receipt gives a link to it"
          checked={values.has_digital_access}
          onChange={set('has_digital_access')}
          error={fields.digital_access}
        />
        {values.has_digital_access ? (
          <>
            <TextField
              name="digital_access.url"
              label="Access URL"
              type="url"
              autoComplete="off"
              value={values.digital_url}
              onChange={set('digital_url')}
              error={fields['digital_access.url']}
            />
            <TextArea
              name="digital_access.instructions"
              label="Instructions"
              maxLength={1000}
              value={values.digital_instructions}
              onChange={set('digital_instructions')}
              error={fields['digital_access.instructions']}
            />
          </>
        ) : null}
      </FieldGroup>

      <OfferTranslationsPart
        values={values.translations}
        base={values}
        languages={languages}
        fields={fields}
        onChange={set('translations')}
      />

      <Checkbox
        name="active"
        label="Active: checkouts and links may offer it"
        checked={values.active}
        onChange={set('active')}
        error={fields.active}
      />
      <FormFooter pending={save.isPending} action={offer ? 'Save changes' : 'Make the offer'} saved={saved} />
    </form>
  );
}

export function OfferScreen({ id }: { id: number | null }) {
  const offer = useQuery({
    queryKey: offerKey(id ?? 0),
    queryFn: () => readOffer(id ?? 0),
    enabled: id !== null,
  });
  if (id === null) {
    return (
      <div className="admin-stack">
        <ScreenHeading>New offer</ScreenHeading>
        <OfferForm offer={null} />
      </div>
    );
  }
  if (!offer.data) return <ObjectLoading what="offer" error={offer.error} />;
  return (
    <div className="admin-stack">
      <ScreenHeading>{`Offer: ${offer.data.offer_name}`}</ScreenHeading>
      <OfferForm key={offer.data.id} offer={offer.data} />
      <AuditTrail objectType="offer" objectId={id} />
    </div>
  );
}
