import { useState } from 'react';
import { failureOf } from '../../api/http-client.js';
import { T, useT } from '../../i18n/use-t.js';
import { Button } from '../../ui/button.js';
import { errorId, fieldId } from '../../ui/field-ids.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';

/** Apply or remove a discount code; the server's message says why a code is refused. */
export function DiscountCodeForm() {
  const { api, token, cart, setCart } = useCheckout();
  const announce = useAnnounce();
  const { t } = useT();
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
        value === ''
          ? t('summary.code_removed')
          : t('summary.code_applied_said', { code: next.discount_code ?? value }),
      );
    } catch (failure) {
      setError(failureOf(failure, t).message);
    } finally {
      setBusy(false);
    }
  };

  const notice = cart.discount_notice ?? null;
  if (applied) {
    return (
      <div className="discount discount--applied">
        <p>
          <T
            id={notice ? 'summary.code_lapsed' : 'summary.code_applied'}
            values={{ code: applied }}
            components={[<strong />]}
          />
        </p>
        <Button variant="link" disabled={busy} onClick={() => void send('')}>
          <T
            id="summary.remove_code"
            values={{ code: applied }}
            components={[<span className="visually-hidden" />]}
          />
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
          setError(t('summary.enter_code'));
          return;
        }
        void send(value);
      }}
    >
      <label className="field__label" htmlFor={fieldId('discount_code')}>
        {t('summary.discount_code')}
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
          {t('summary.apply')}
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
