import { useState } from 'react';
import type { SectionType } from '../../contract/organization.js';
import type { ApiFailure } from '../../domain/api-error-catalogue.js';
import { useCheckout } from './checkout-context.js';
import { orderedErrors, sectionFields, validateSection } from './section-rules.js';

/**
 * "Continue": checks every field of the section, shows the error summary and focuses the first invalid field, or
 * runs the section's own save (gifts) and moves on.
 */
export function useSectionSubmit(
  component: SectionType,
  onDone: () => void,
  options: {
    save?: () => Promise<ApiFailure | null>;
    /** makes a field visible before it is focused (opens its gift panel) */
    reveal?: (name: string) => void;
  } = {},
) {
  const { cart, form, dispatchForm, sectionContext, sectionAlerts, setSectionAlert, requestFocus } =
    useCheckout();
  const [busy, setBusy] = useState(false);
  const { save, reveal } = options;

  const focusFirst = (name: string) => {
    reveal?.(name);
    requestFocus(name);
  };

  async function submit() {
    const errors = validateSection(component, sectionContext());
    dispatchForm({ type: 'setErrors', names: sectionFields(component, cart), errors });
    const first = orderedErrors(component, cart, errors)[0];
    if (first) {
      setSectionAlert(component, { message: null });
      focusFirst(first[0]);
      return;
    }
    if (save) {
      setBusy(true);
      const failure = await save();
      setBusy(false);
      if (failure) {
        const fields = failure.fields ?? {};
        dispatchForm({ type: 'setErrors', names: Object.keys(fields), errors: fields });
        setSectionAlert(component, { message: failure.message });
        const firstField = orderedErrors(component, cart, fields)[0];
        if (firstField) focusFirst(firstField[0]);
        return;
      }
    }
    setSectionAlert(component, null);
    onDone();
  }

  const alert = sectionAlerts[component];
  return {
    submit,
    busy,
    summary: alert ? orderedErrors(component, cart, form.errors) : [],
    message: alert?.message ?? null,
  };
}
