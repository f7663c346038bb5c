import { useState } from 'react';
import { failureOf } from '../../api/http-client.js';
import { Button } from '../../ui/button.js';
import { errorId, fieldId } from '../../ui/field-ids.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';

/** Apply or remove a discount code; the server's message says why a code is refused. */
export function DiscountCodeForm() {
  const { api, token, cart, setCart } = useCheckout();
  const announce = useAnnounce();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const applied = cart.discount_code;

  const send = async (value: string) => {
    setBusy(true);
    setError(null);
    try {
      const next = await api.applyDiscountCode(token, value);
      setCart(next);
      setCode('');
      announce(
        value === '' ? 'Discount code removed.' : `Discount code ${next.discount_code ?? value} applied.`,
      );
    } catch (failure) {
      setError(failureOf(failure).message);
    } finally {
      setBusy(false);
    }
  };

  const notice = cart.discount_notice ?? null;
  if (applied) {
    return (
      <div className="discount discount--applied">
        <p>
          Code <strong>{applied}</strong> {notice ? 'no longer applies' : 'applied'}
        </p>
        <Button variant="link" disabled={busy} onClick={() => void send('')}>
          Remove
          <span className="visually-hidden"> discount code {applied}</span>
        </Button>
        {notice ? (
          <p className="notice notice--warning discount__notice" role="status">
            {notice.message}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <form
      className="discount"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const value = code.trim();
        if (value === '') {
          setError('Enter a discount code.');
          return;
        }
        void send(value);
      }}
    >
      <label className="field__label" htmlFor={fieldId('discount_code')}>
        Discount code
      </label>
      <div className="discount__row">
        <input
          className="field__input"
          id={fieldId('discount_code')}
          name="discount_code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId('discount_code') : undefined}
        />
        <Button type="submit" variant="secondary" disabled={busy} aria-busy={busy}>
          Apply
        </Button>
      </div>
      {error ? (
        <p className="field__error" id={errorId('discount_code')} role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
