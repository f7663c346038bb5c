import type { ReactNode } from 'react';
import { Button } from '../ui/button.js';
import { ErrorSummary } from '../ui/error-summary.js';

export interface SectionFormProps {
  /** Continue (or the order button): the browser's own checks are off, the section checks itself */
  onSubmit: () => void;
  /** the section's error summary (useSectionSubmit) */
  summary: readonly [string, string][];
  message: string | null;
  /** makes a field visible before the summary focuses it */
  reveal?: (name: string) => void;
  /** the Continue button's text; null when the section has its own final button */
  continueLabel: string | null;
  /** while the section saves: the button is disabled and says so */
  busy?: { active: boolean; label: string };
  children: ReactNode;
}

/** A section's form: its error summary on top, its fields, then Continue. */
export function SectionForm({
  onSubmit,
  summary,
  message,
  reveal,
  continueLabel,
  busy,
  children,
}: SectionFormProps) {
  return (
    <form
      className="section-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <ErrorSummary errors={summary} message={message} reveal={reveal} />
      {children}
      {continueLabel ? (
        <Button
          type="submit"
          className="section-form__continue"
          {...(busy ? { disabled: busy.active, 'aria-busy': busy.active } : {})}
        >
          {busy?.active ? busy.label : continueLabel}
        </Button>
      ) : null}
    </form>
  );
}
