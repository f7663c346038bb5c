import { useState } from 'react';
import { GIFT_TEXT_MAX_LENGTH, isoDate } from '../../../domain/gift-validation.js';
import { useT } from '../../i18n/use-t.js';
import { Button } from '../../ui/button.js';
import { TextArea } from '../../ui/text-area.js';
import { TextField } from '../../ui/text-field.js';
import { useCheckout } from '../checkout-context.js';
import { giftFieldName } from '../form/checkout-form.js';
import { SectionForm } from '../section-form.js';
import type { SectionBodyProps } from '../section-props.js';
import { giftOffers } from '../section-rules.js';
import { useSectionFields } from '../use-section-fields.js';
import { useSectionSubmit } from '../use-section-submit.js';
import { saveGifts, withSavedGifts } from './save-gifts.js';

/** The gift offers as an accordion (the current index starts at 0), saved together on Continue. */
export default function GiftForms({ continueLabel, onDone }: SectionBodyProps) {
  const { api, token, cart, form, updateCart, now } = useCheckout();
  const { bind } = useSectionFields('GiftInformation');
  const { t } = useT();
  const offers = giftOffers(cart);
  const [current, setCurrent] = useState(0);
  const reveal = (name: string) => {
    const index = offers.findIndex((offer) => name.endsWith(`_${offer.order_offer_id}`));
    if (index >= 0) setCurrent(index);
  };
  const { submit, summary, message, busy } = useSectionSubmit('GiftInformation', onDone, {
    reveal,
    save: async () => {
      const result = await saveGifts(api, token, cart, form.text, t);
      updateCart((latest) => withSavedGifts(latest, result.saved));
      return result.failure;
    },
  });
  const today = isoDate(now());

  return (
    <SectionForm
      onSubmit={() => void submit()}
      summary={summary}
      message={message}
      reveal={reveal}
      continueLabel={continueLabel}
      busy={{ active: busy, label: t('gifts.saving') }}
    >
      <div className="gift-accordion">
        {offers.map((offer, index) => {
          const id = offer.order_offer_id;
          const open = index === current;
          const panelId = `gift-panel-${id}`;
          const recipient = form.text[giftFieldName('gift_name', id)];
          return (
            <div className={`gift-accordion__item${open ? ' gift-accordion__item--open' : ''}`} key={id}>
              <h3 className="gift-accordion__heading">
                <button
                  type="button"
                  className="gift-accordion__toggle"
                  aria-expanded={open}
                  aria-controls={panelId}
                  onClick={() => setCurrent(index)}
                >
                  <span>{t('gifts.heading', { number: index + 1, item: offer.item_name })}</span>
                  {recipient ? (
                    <span className="gift-accordion__recipient">
                      {t('gifts.for_recipient', { name: recipient })}
                    </span>
                  ) : null}
                </button>
              </h3>
              <div className="gift-accordion__panel" id={panelId} hidden={!open}>
                {open ? (
                  <>
                    <TextField
                      {...bind(giftFieldName('gift_name', id))}
                      label={t('gifts.recipient_name')}
                      autoComplete="off"
                      maxLength={100}
                    />
                    <TextField
                      {...bind(giftFieldName('gift_email', id))}
                      label={t('gifts.recipient_email')}
                      type="email"
                      inputMode="email"
                      autoComplete="off"
                      hint={t('gifts.email_hint')}
                      maxLength={254}
                    />
                    <TextField
                      {...bind(giftFieldName('gift_date', id))}
                      label={t('gifts.send_on')}
                      type="date"
                      min={today}
                      autoComplete="off"
                    />
                    <TextField
                      {...bind(giftFieldName('gift_phone', id))}
                      label={t('gifts.recipient_phone')}
                      type="tel"
                      autoComplete="off"
                      required={false}
                      maxLength={40}
                    />
                    <TextArea
                      {...bind(giftFieldName('gift_message', id))}
                      label={t('gifts.message')}
                      hint={t('gifts.message_hint', { max: GIFT_TEXT_MAX_LENGTH })}
                      maxLength={GIFT_TEXT_MAX_LENGTH}
                    />
                    <TextArea
                      {...bind(giftFieldName('order_offer_notes', id))}
                      label={t('gifts.notes')}
                      maxLength={GIFT_TEXT_MAX_LENGTH}
                    />
                    {index < offers.length - 1 ? (
                      <Button variant="secondary" onClick={() => setCurrent(index + 1)}>
                        {t('gifts.next')}
                      </Button>
                    ) : null}
                  </>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
    </SectionForm>
  );
}
