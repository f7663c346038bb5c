import type { SectionType } from '../../contract/organization.js';
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
 * it already shows an error), and an error clears as soon as the value is fixed.
 */
export function useSectionFields(
  component: SectionType,
  validate: (context: SectionContext) => FieldErrors = (context) => validateSection(component, context),
) {
  const { form, dispatchForm, sectionContext } = useCheckout();

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
      if ((form.text[name] ?? '') === '' && !form.errors[name]) return;
      const error = errorFor(name);
      dispatchForm({ type: 'setErrors', names: [name], errors: error ? { [name]: error } : {} });
    },
  });

  return { bind, form, dispatchForm };
}
