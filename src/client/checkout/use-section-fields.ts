import type { SectionType } from '../../contract/organization.js';
import { useT } from '../i18n/use-t.js';
import { afterPointerRelease } from '../ui/after-pointer-release.js';
import { fieldLabel } from '../ui/field-ids.js';
import { useAnnounce } from '../ui/live-region.js';
import { useCheckout } from './checkout-context.js';
import { formReducer } from './form/checkout-form.js';
import type { FieldErrors } from '../../domain/field-errors.js';
import { validateSection, type SectionContext } from './section-rules.js';

export interface FieldBinding {
  name: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}

/**
 * Binds a section's fields to the form: a field is checked when it loses focus (once something was typed, or when
 * it already shows an error; a new message is announced), and an error clears as soon as the value is fixed.
 */
export function useSectionFields(
  component: SectionType,
  validate: (context: SectionContext) => FieldErrors = (context) => validateSection(component, context),
) {
  const { form, dispatchForm, sectionContext } = useCheckout();
  const announce = useAnnounce();
  const { t } = useT();

  const errorFor = (name: string, nextForm = form) => validate(sectionContext(nextForm))[name];

  const bind = (name: string, format?: (value: string) => string): FieldBinding => ({
    name,
    value: form.text[name] ?? '',
    error: form.errors[name],
    onChange: (raw) => {
      const value = format ? format(raw) : raw;
      dispatchForm({ type: 'set', name, value });
      if (form.errors[name]) {
        const next = formReducer(form, { type: 'set', name, value });
        const error = errorFor(name, next);
        dispatchForm({ type: 'setErrors', names: [name], errors: error ? { [name]: error } : {} });
      }
    },
    onBlur: () => {
      const value = form.text[name] ?? '';
      if (value === '' && !form.errors[name]) return;
      const error = errorFor(name);
      const shown = form.errors[name];
      // Read now: the click may close the field's panel (the next gift).
      const label = fieldLabel(name);
      // A message that appears moves the fields below: it waits for the click that moved the focus away.
      afterPointerRelease(() => {
        dispatchForm({ type: 'setCheckedError', name, value, error });
        // Said aloud: the focus has left the field whose description carries it.
        if (error && error !== shown) announce(t('checkout.field_error', { label, error }));
      });
    },
  });

  return { bind, form, dispatchForm };
}
