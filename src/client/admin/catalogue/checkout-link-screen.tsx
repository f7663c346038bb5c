// A checkout link's screen (docs/dashboard.md, "Catalogue"): its address with a Copy button, the checkout it opens
// (priced by the server), and one form to make or change it; an edit sends only what changed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CheckoutLink } from '../../../contract/merchant.js';
import { Button } from '../../ui/button.js';
import { Checkbox } from '../../ui/checkbox.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { focusField } from '../../ui/field-ids.js';
import { useAnnounce } from '../../ui/live-region.js';
import { SelectField } from '../../ui/select-field.js';
import { TextField } from '../../ui/text-field.js';
import { navigate } from '../navigation.js';
import { AuditTrail, auditKey } from '../kit/audit-trail.js';
import { summaryOf } from '../kit/form-failure.js';
import { ScreenHeading } from '../screen-heading.js';
import { linkKey, linksKey, previewKey, readLink, saveLink } from './catalogue-queries.js';
import {
  linkBody,
  linkFailure,
  linkFieldOrder,
  linkFormValues,
  MAX_BUMPS,
  MAX_LINES,
  MAX_UPSELLS,
  NEW_LINE,
  NEW_LINK,
  NEW_UPSELL,
  subscribeBoxLabel,
  type LinkFormValues,
  type LinkLineValues,
  type LinkUpsellValues,
} from './checkout-link-form-values.js';
import { CheckoutLinkPreview } from './checkout-link-preview.js';
import { CopyButton } from '../kit/copy-button.js';
import { FieldGroup, FormFooter, ObjectLoading } from './form-parts.js';
import { changedFields } from './form-values.js';
import { useAllOffers } from './use-all-offers.js';

/** A line's subscribe-and-save preset (docs/api.md, "Subscribe and save"), when its offer allows it. */
function SubscribeBox(props: {
  index: number;
  label: string | null;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error: string | undefined;
}) {
  if (props.label === null) return null;
  return (
    <Checkbox
      name={`offers.${props.index}.subscribe`}
      label={`Line ${props.index + 1}: ${props.label}`}
      checked={props.checked}
      onChange={props.onChange}
      error={props.error}
    />
  );
}

function LinkForm({ link }: { link: CheckoutLink | null }) {
  const client = useQueryClient();
  const announce = useAnnounce();
  const offers = useAllOffers();
  const [values, setValues] = useState<LinkFormValues>(() => (link ? linkFormValues(link) : NEW_LINK));
  const [saved, setSaved] = useState<string | null>(null);
  const set =
    <K extends keyof LinkFormValues>(key: K) =>
    (value: LinkFormValues[K]) => {
      setSaved(null);
      setValues((current) => ({ ...current, [key]: value }));
    };

  const save = useMutation({
    mutationFn: () => {
      if (link === null) return saveLink(null, linkBody(values, true));
      const changed = changedFields(linkBody(linkFormValues(link), false), linkBody(values, false));
      return Object.keys(changed).length === 0 ? Promise.resolve(null) : saveLink(link.id, changed);
    },
    onSuccess: (answer) => {
      if (answer === null) {
        setSaved('Nothing changed.');
        announce('Nothing changed.');
        return;
      }
      void client.invalidateQueries({ queryKey: linksKey });
      client.setQueryData(linkKey(answer.id), answer);
      void client.invalidateQueries({ queryKey: previewKey(answer.id) });
      void client.invalidateQueries({ queryKey: auditKey('checkout_link', answer.id) });
      if (link === null) {
        announce('Checkout link made.');
        navigate(`/admin/catalogue/checkout-links/${answer.id}`);
      } else {
        setValues(linkFormValues(answer));
        setSaved('Saved. The preview shows the checkout it opens now.');
        announce('Checkout link saved.');
      }
    },
  });
  const { message, fields } = linkFailure(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    save.mutate();
  };

  const setLine = (index: number, patch: Partial<LinkLineValues>) =>
    set('lines')(values.lines.map((line, i) => (i === index ? { ...line, ...patch } : line)));
  const addLine = () => {
    const index = values.lines.length;
    set('lines')([...values.lines, NEW_LINE]);
    requestAnimationFrame(() => focusField(`offers.${index}.offer_id`));
  };
  const removeLine = (index: number) => {
    set('lines')(values.lines.filter((_, i) => i !== index));
    announce(`Line ${index + 1} removed.`);
    requestAnimationFrame(() => document.getElementById('catalogue-add-line')?.focus());
  };
  const setBump = (index: number, offerId: string) =>
    set('bumps')(values.bumps.map((id, i) => (i === index ? offerId : id)));
  const addBump = () => {
    const index = values.bumps.length;
    set('bumps')([...values.bumps, '']);
    requestAnimationFrame(() => focusField(`bump_offer_ids.${index}`));
  };
  const removeBump = (index: number) => {
    set('bumps')(values.bumps.filter((_, i) => i !== index));
    announce(`Bump ${index + 1} removed.`);
    requestAnimationFrame(() => document.getElementById('catalogue-add-bump')?.focus());
  };
  const setUpsell = (index: number, patch: Partial<LinkUpsellValues>) =>
    set('upsells')(values.upsells.map((step, i) => (i === index ? { ...step, ...patch } : step)));
  const addUpsell = () => {
    const index = values.upsells.length;
    set('upsells')([...values.upsells, NEW_UPSELL]);
    requestAnimationFrame(() => focusField(`upsells.${index}.offer_id`));
  };
  const removeUpsell = (index: number) => {
    set('upsells')(values.upsells.filter((_, i) => i !== index));
    announce(`Offer ${index + 1} after the purchase removed.`);
    requestAnimationFrame(() => document.getElementById('catalogue-add-upsell')?.focus());
  };
  const offerById = new Map((offers.data?.data ?? []).map((offer) => [String(offer.id), offer]));
  const offerChoices = (offers.data?.data ?? []).map((offer) => ({
    value: String(offer.id),
    label: `${offer.offer_name} (${offer.item_name})${offer.active ? '' : ', inactive'}`,
  }));

  return (
    <form onSubmit={submit} noValidate className="admin-form admin-card" aria-labelledby="link-form-heading">
      <h2 id="link-form-heading">{link ? 'Change the link' : 'The link'}</h2>
      <ErrorSummary errors={summaryOf(fields, linkFieldOrder(values))} message={message} />
      <div className="admin-grid">
        {link === null ? (
          <TextField
            name="public_id"
            label="Public id"
            required={false}
            hint="The end of the link's address: 3 to 64 letters, digits, dashes or underscores. Empty for a random one. It cannot change later."
            autoComplete="off"
            value={values.public_id}
            onChange={set('public_id')}
            error={fields.public_id}
          />
        ) : null}
        <TextField
          name="name"
          label="Name"
          required={false}
          hint="For you; shoppers do not see it."
          autoComplete="off"
          value={values.name}
          onChange={set('name')}
          error={fields.name}
        />
      </div>
      <FieldGroup legend="Lines" name="offers" error={fields.offers}>
        {values.lines.map((line, index) => (
          <div className="catalogue-row catalogue-row--line" key={index}>
            <SelectField
              name={`offers.${index}.offer_id`}
              label={`Line ${index + 1} offer`}
              autoComplete="off"
              placeholder="Choose an offer"
              options={offerChoices}
              value={line.offer_id}
              onChange={(offerId) =>
                // A preset stays only where the newly chosen offer allows it.
                setLine(index, {
                  offer_id: offerId,
                  subscribe: line.subscribe && Boolean(offerById.get(offerId)?.subscribe_and_save),
                })
              }
              error={fields[`offers.${index}.offer_id`]}
            />
            <TextField
              name={`offers.${index}.quantity`}
              label={`Line ${index + 1} quantity`}
              inputMode="numeric"
              autoComplete="off"
              value={line.quantity}
              onChange={(quantity) => setLine(index, { quantity })}
              error={fields[`offers.${index}.quantity`]}
            />
            <Checkbox
              name={`offers.${index}.is_gift`}
              label={`Line ${index + 1} as a gift`}
              checked={line.is_gift}
              onChange={(isGift) => setLine(index, { is_gift: isGift })}
              error={fields[`offers.${index}.is_gift`]}
            />
            <SubscribeBox
              index={index}
              label={subscribeBoxLabel(offerById.get(line.offer_id), line)}
              checked={line.subscribe}
              onChange={(subscribe) => setLine(index, { subscribe })}
              error={fields[`offers.${index}.subscribe`]}
            />
            <Button
              variant="secondary"
              onClick={() => removeLine(index)}
              disabled={values.lines.length === 1}
            >
              Remove line {index + 1}
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          id="catalogue-add-line"
          onClick={addLine}
          disabled={values.lines.length >= MAX_LINES}
        >
          Add a line
        </Button>
      </FieldGroup>
      <FieldGroup legend="Order bumps" name="bump_offer_ids" error={fields.bump_offer_ids}>
        <p className="field__hint">
          Up to {MAX_BUMPS} offers shown as boxes above the pay button; ticking one adds it to the order.
          None: the store&rsquo;s default bumps (Settings).
        </p>
        {values.bumps.map((offerId, index) => (
          <div className="catalogue-row" key={index}>
            <SelectField
              name={`bump_offer_ids.${index}`}
              label={`Bump ${index + 1} offer`}
              autoComplete="off"
              placeholder="Choose an offer"
              options={offerChoices}
              value={offerId}
              onChange={(chosen) => setBump(index, chosen)}
              error={fields[`bump_offer_ids.${index}`]}
            />
            <Button variant="secondary" onClick={() => removeBump(index)}>
              Remove bump {index + 1}
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          id="catalogue-add-bump"
          onClick={addBump}
          disabled={values.bumps.length >= MAX_BUMPS}
        >
          Add a bump
        </Button>
      </FieldGroup>
      <FieldGroup legend="Offers after the purchase" name="upsells" error={fields.upsells}>
        <p>
          One-click offers shown after a card order completes, charged to the same card; the downsell shows
          when the shopper says no. Up to {MAX_UPSELLS}.
        </p>
        {values.upsells.map((step, index) => (
          <div className="catalogue-row catalogue-row--line" key={index}>
            <SelectField
              name={`upsells.${index}.offer_id`}
              label={`Offer ${index + 1} after the purchase`}
              autoComplete="off"
              placeholder="Choose an offer"
              options={offerChoices}
              value={step.offer_id}
              onChange={(offerId) => setUpsell(index, { offer_id: offerId })}
              error={fields[`upsells.${index}.offer_id`]}
            />
            <SelectField
              name={`upsells.${index}.downsell_offer_id`}
              label={`Offer ${index + 1} downsell`}
              autoComplete="off"
              options={[{ value: 'none', label: 'No downsell' }, ...offerChoices]}
              value={step.downsell_offer_id || 'none'}
              onChange={(offerId) =>
                setUpsell(index, { downsell_offer_id: offerId === 'none' ? '' : offerId })
              }
              error={fields[`upsells.${index}.downsell_offer_id`]}
            />
            <Button variant="secondary" onClick={() => removeUpsell(index)}>
              Remove offer {index + 1}
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          id="catalogue-add-upsell"
          onClick={addUpsell}
          disabled={values.upsells.length >= MAX_UPSELLS}
        >
          Add an offer after the purchase
        </Button>
      </FieldGroup>
      <div className="admin-grid">
        <TextField
          name="discount_code"
          label="Discount code"
          required={false}
          hint="One of the store's codes, applied when the checkout opens; empty for none."
          autoComplete="off"
          value={values.discount_code}
          onChange={set('discount_code')}
          error={fields.discount_code}
        />
        <TextField
          name="expires_at"
          label="Expires"
          type="datetime-local"
          required={false}
          hint="In your time zone; empty to never expire."
          autoComplete="off"
          value={values.expires_at}
          onChange={set('expires_at')}
          error={fields.expires_at}
        />
      </div>
      <Checkbox
        name="active"
        label="Active: a visit opens a checkout"
        checked={values.active}
        onChange={set('active')}
        error={fields.active}
      />
      <FormFooter pending={save.isPending} action={link ? 'Save changes' : 'Make the link'} saved={saved} />
    </form>
  );
}

export function CheckoutLinkScreen({ id }: { id: number | null }) {
  const link = useQuery({
    queryKey: linkKey(id ?? 0),
    queryFn: () => readLink(id ?? 0),
    enabled: id !== null,
  });
  if (id === null) {
    return (
      <div className="admin-stack">
        <ScreenHeading>New checkout link</ScreenHeading>
        <LinkForm link={null} />
      </div>
    );
  }
  if (!link.data) return <ObjectLoading what="checkout link" error={link.error} />;
  const { data } = link;
  return (
    <div className="admin-stack">
      <ScreenHeading>{`Checkout link ${data.name || data.public_id}`}</ScreenHeading>
      <p className="catalogue-url">
        <span>
          Address: <code>{data.checkout_url}</code>
        </span>
        <CopyButton text={data.checkout_url} label="Copy the link's address" />
      </p>
      <CheckoutLinkPreview id={id} />
      <LinkForm key={data.id} link={data} />
      <AuditTrail objectType="checkout_link" objectId={id} />
    </div>
  );
}
