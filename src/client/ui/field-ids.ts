/** The DOM id of a form field by its name, so an error summary, focus and labels all agree. */
export function fieldId(name: string): string {
  return `field-${name}`;
}

export function errorId(name: string): string {
  return `field-${name}-error`;
}

export function hintId(name: string): string {
  return `field-${name}-hint`;
}

export function describedBy(name: string, parts: { hint?: boolean; error?: boolean }): string | undefined {
  const ids = [parts.hint ? hintId(name) : null, parts.error ? errorId(name) : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** Moves focus to a field (and scrolls it into view); false when it is not on the page. */
export function focusField(name: string): boolean {
  const element = document.getElementById(fieldId(name));
  if (!element) return false;
  element.focus();
  return true;
}

/** A field's label as it reads ("Card number"), without the "(optional)" mark; its name when it has none. */
export function fieldLabel(name: string): string {
  const element = document.getElementById(fieldId(name));
  const label = element && 'labels' in element ? (element as HTMLInputElement).labels?.[0] : null;
  if (!label) return name;
  const optional = label.querySelector('.field__optional')?.textContent ?? '';
  return (label.textContent ?? '').replace(optional, '').trim() || name;
}
