// The store's languages (docs/languages.md, "Which language"): the default, and those its pages may speak.
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../i18n/languages.js';
import { Checkbox } from '../../ui/checkbox.js';
import { SelectField } from '../../ui/select-field.js';
import { SettingsForm } from './settings-form.js';

const FIELDS = ['languages', 'languages.default', 'languages.enabled'] as const;

/** The enabled languages in the checkout's order, the default always among them. */
export function languagesPatch(defaultLanguage: Language, enabled: ReadonlySet<Language>) {
  return {
    languages: {
      default: defaultLanguage,
      enabled: LANGUAGES.filter((language) => language === defaultLanguage || enabled.has(language)),
    },
  };
}

export function LanguagesForm({ organization }: { organization: Organization }) {
  const [defaultLanguage, setDefault] = useState<Language>(organization.languages.default);
  const [enabled, setEnabled] = useState(() => new Set<Language>(organization.languages.enabled));
  const toggle = (language: Language, on: boolean) =>
    setEnabled((current) => {
      const next = new Set(current);
      if (on) next.add(language);
      else next.delete(language);
      return next;
    });
  return (
    <SettingsForm
      id="languages"
      title="Languages"
      intro="The checkout, its emails and the subscriber's page open in the shopper's language when it is enabled here (their browser's, or the one they choose on the page), else in the default."
      fieldNames={FIELDS}
      patch={() => languagesPatch(defaultLanguage, enabled)}
    >
      {(errors) => (
        <>
          <SelectField
            name="languages.default"
            label="Default language"
            autoComplete="off"
            options={LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
            value={defaultLanguage}
            onChange={(value) => setDefault(value as Language)}
            error={errors['languages.default'] ?? errors.languages}
          />
          <fieldset className="settings-group">
            <legend className="field__label">Enabled languages</legend>
            {LANGUAGES.map((language) => (
              <Checkbox
                key={language}
                name={`languages.enabled.${language}`}
                label={
                  language === defaultLanguage
                    ? `${LANGUAGE_NAMES[language]} (the default, always enabled)`
                    : LANGUAGE_NAMES[language]
                }
                checked={language === defaultLanguage || enabled.has(language)}
                onChange={(on) => {
                  if (language !== defaultLanguage) toggle(language, on);
                }}
                error={language === defaultLanguage ? errors['languages.enabled'] : undefined}
              />
            ))}
          </fieldset>
        </>
      )}
    </SettingsForm>
  );
}
