// The wording a subscriber agrees to, and its version (docs/checkout-rules.md, "Subscription terms"), with its text
// in other languages (docs/api.md, "Translations").
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { LANGUAGES, type Language } from '../../../i18n/languages.js';
import { describedBy, fieldId } from '../../ui/field-ids.js';
import { FieldShell } from '../../ui/field-shell.js';
import { TextArea } from '../../ui/text-area.js';
import { TextField } from '../../ui/text-field.js';
import { filledTranslations } from './field-values.js';
import { LanguageGroups } from './language-groups.js';
import { SettingsForm } from './settings-form.js';

const FIELDS = ['subscription_terms.text', 'subscription_terms.version'] as const;
const translatedField = (language: Language) => `subscription_terms.translations.${language}.text`;

type TermsTexts = Partial<Record<Language, { text: string }>>;

/** The saved translations as the form holds them. */
const termsTexts = (organization: Organization): TermsTexts =>
  Object.fromEntries(
    LANGUAGES.flatMap((language) => {
      const saved = organization.subscription_terms.translations?.[language];
      return saved ? [[language, { text: saved.text ?? '' }]] : [];
    }),
  );

export function SubscriptionTermsForm({ organization }: { organization: Organization }) {
  const saved = organization.subscription_terms;
  const [text, setText] = useState(saved.text);
  const [version, setVersion] = useState(saved.version);
  // Sent with the text: the terms are saved whole, so leaving them out would drop them.
  const [translations, setTranslations] = useState<TermsTexts>(() => termsTexts(organization));
  const textChanged = text.trim() !== saved.text;
  const sameVersion = version.trim() === saved.version;
  return (
    <SettingsForm
      id="terms"
      title="Subscription terms"
      intro="The text beside the subscription terms box. Each order records the version the shopper agreed to."
      fieldNames={[...FIELDS, ...LANGUAGES.filter((language) => translations[language]).map(translatedField)]}
      patch={() => ({
        subscription_terms: { text, version, translations: filledTranslations(translations) },
      })}
    >
      {(errors) => (
        <>
          {/* Not the shared TextArea: that one is always optional, and the terms are required. */}
          <FieldShell
            name="subscription_terms.text"
            label="Terms text"
            hint="Up to 2,000 characters."
            error={errors['subscription_terms.text']}
          >
            <textarea
              className="field__input field__input--multiline"
              id={fieldId('subscription_terms.text')}
              name="subscription_terms.text"
              rows={4}
              maxLength={2000}
              required
              aria-required
              value={text}
              onChange={(event) => setText(event.target.value)}
              aria-invalid={errors['subscription_terms.text'] ? true : undefined}
              aria-describedby={describedBy('subscription_terms.text', {
                hint: true,
                error: Boolean(errors['subscription_terms.text']),
              })}
            />
          </FieldShell>
          <TextField
            name="subscription_terms.version"
            label="Version"
            hint="Up to 40 characters, such as a date. Give a new version when you change the text, so each order keeps the version its shopper agreed to."
            autoComplete="off"
            maxLength={40}
            value={version}
            onChange={setVersion}
            error={errors['subscription_terms.version']}
          />
          <LanguageGroups
            form="terms"
            legend="Terms text in other languages"
            languages={organization.languages}
            values={translations}
            empty={{ text: '' }}
            onChange={setTranslations}
            firstField={translatedField}
          >
            {(language, name) => (
              <TextArea
                name={translatedField(language)}
                label={`Terms text (${name})`}
                hint="Empty shows the text above. The version is the same in every language."
                maxLength={2000}
                value={translations[language]?.text ?? ''}
                onChange={(value) =>
                  setTranslations((current) => ({ ...current, [language]: { text: value } }))
                }
                error={errors[translatedField(language)]}
              />
            )}
          </LanguageGroups>
          {textChanged && sameVersion ? (
            <p className="settings-note" role="status">
              The text has changed but the version has not: orders placed from now on would record version{' '}
              {saved.version} with the new text.
            </p>
          ) : null}
        </>
      )}
    </SettingsForm>
  );
}
