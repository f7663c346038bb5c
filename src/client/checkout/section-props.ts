/** What every section body gets from the page. */
export interface SectionBodyProps {
  /** "Continue to shipping"; null when the section has its own final button */
  continueLabel: string | null;
  /** the section is complete: move on */
  onDone: () => void;
}
