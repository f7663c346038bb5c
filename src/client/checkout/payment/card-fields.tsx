import { formatCardExpiry } from '../../../domain/card-expiry.js';
import { ACCEPTED_BRANDS_TEXT, cvvLength, formatCardNumber, getCardType } from '../../../domain/card.js';
import { TextField } from '../../ui/text-field.js';
import { useCheckout } from '../checkout-context.js';
import { useSectionFields } from '../use-section-fields.js';
import { validatePayment } from './payment-rules.js';

/** Card number (grouped as typed, brand icon after 4 digits), expiry and CVV, with autofill names. */
export function CardFields() {
  const { testCards, config } = useCheckout();
  const { bind } = useSectionFields('PaymentInformation', validatePayment);
  const number = bind('card_number', formatCardNumber);
  const type = getCardType(number.value, testCards);
  const cvvDigits = cvvLength(type?.brand ?? null);
  return (
    <div className="card-fields">
      <TextField
        {...number}
        label="Card number"
        autoComplete="cc-number"
        inputMode="numeric"
        maxLength={23}
        hint={`We accept ${ACCEPTED_BRANDS_TEXT}.`}
        adornment={
          type ? (
            <>
              <img
                src={`${import.meta.env.BASE_URL}images/cards/${type.icon}.svg`}
                alt=""
                width={40}
                height={26}
                className="card-fields__icon"
              />
              <span className="visually-hidden">{type.label}</span>
            </>
          ) : null
        }
      />
      <div className="field-row">
        <TextField
          {...bind('card_expiry', formatCardExpiry)}
          label="Expiry date (MM / YY)"
          autoComplete="cc-exp"
          inputMode="numeric"
          maxLength={7}
        />
        <TextField
          {...bind('card_cvv', (value) => value.replace(/\D/g, '').slice(0, 4))}
          label="Security code (CVV)"
          autoComplete="cc-csc"
          inputMode="numeric"
          maxLength={4}
          hint={`${cvvDigits} digits, on the ${cvvDigits === 4 ? 'front' : 'back'} of the card.`}
        />
      </div>
      {config.test_mode && testCards.length > 0 ? <TestCards /> : null}
    </div>
  );
}

function TestCards() {
  const { testCards, dispatchForm } = useCheckout();
  return (
    <div className="test-cards">
      <p className="test-cards__title">Test mode: pay with a test card (any future expiry, any CVV).</p>
      <ul className="test-cards__list">
        {testCards.map((card) => (
          <li key={card}>
            <code>{formatCardNumber(card)}</code>{' '}
            <button
              type="button"
              className="button button--link"
              onClick={() =>
                dispatchForm({ type: 'set', name: 'card_number', value: formatCardNumber(card) })
              }
              aria-label={`Use test card ${formatCardNumber(card)}`}
            >
              Use
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
