// The order of the checkout's sections (docs/checkout-rules.md, "Sections"): each moved one place at a time with
// buttons, the move announced, the focus kept on the moved section's button.
import { useEffect, useRef, useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import type { Section } from '../../../contract/organization.js';
import '../../ui/button.css';
import { useAnnounce } from '../../ui/live-region.js';
import { useT } from '../../i18n/use-t.js';
import { describeMove, moveSection, sectionTitle } from './section-order.js';
import { SettingsForm } from './settings-form.js';

const FIELDS = ['sections'] as const;

type Direction = 'up' | 'down';

export function SectionOrderForm({ organization }: { organization: Organization }) {
  const [sections, setSections] = useState<Section[]>(organization.sections);
  const [moved, setMoved] = useState<{ id: string; direction: Direction } | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const announce = useAnnounce();
  const { t } = useT();

  useEffect(() => {
    if (!moved) return;
    const same = buttons.current.get(`${moved.id}-${moved.direction}`);
    const other = buttons.current.get(`${moved.id}-${moved.direction === 'up' ? 'down' : 'up'}`);
    // At either end the button just used is disabled: the section's other button keeps the focus.
    (same && !same.disabled ? same : other)?.focus();
  }, [moved, sections]);

  const move = (index: number, direction: Direction) => {
    const section = sections[index];
    if (!section) return;
    const next = moveSection(sections, index, direction === 'up' ? -1 : 1);
    setSections(next);
    setMoved({ id: section.id, direction });
    announce(`${describeMove(next, section.id, t)} Save the order to use it on the checkout.`);
  };

  return (
    <SettingsForm
      id="sections"
      title="Section order"
      intro="The checkout shows its sections in this order, top to bottom. The payment section holds the order button."
      fieldNames={FIELDS}
      patch={() => ({ sections })}
    >
      {(errors) => (
        <div className={`field${errors.sections ? ' field--invalid' : ''}`}>
          <ol className="settings-sections" id="field-sections" tabIndex={-1} aria-label="Checkout sections">
            {sections.map((section, index) => {
              const title = sectionTitle(section, t);
              return (
                <li key={section.id}>
                  <span className="settings-sections__name">
                    {index + 1}. {title}
                  </span>
                  <span className="settings-sections__buttons">
                    <button
                      type="button"
                      className="button button--secondary"
                      ref={(element) => {
                        if (element) buttons.current.set(`${section.id}-up`, element);
                        else buttons.current.delete(`${section.id}-up`);
                      }}
                      disabled={index === 0}
                      onClick={() => move(index, 'up')}
                    >
                      Move up<span className="visually-hidden"> {title}</span>
                    </button>
                    <button
                      type="button"
                      className="button button--secondary"
                      ref={(element) => {
                        if (element) buttons.current.set(`${section.id}-down`, element);
                        else buttons.current.delete(`${section.id}-down`);
                      }}
                      disabled={index === sections.length - 1}
                      onClick={() => move(index, 'down')}
                    >
                      Move down<span className="visually-hidden"> {title}</span>
                    </button>
                  </span>
                </li>
              );
            })}
          </ol>
          {errors.sections ? (
            <p className="field__error" id="field-sections-error">
              {errors.sections}
            </p>
          ) : null}
        </div>
      )}
    </SettingsForm>
  );
}
