// The store's legal links, shown under the checkout (docs/api.md, "legal"), with a page per language
// (docs/api.md, "Translations").
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { LANGUAGES, type Language } from '../../../i18n/languages.js';
import { TextField } from '../../ui/text-field.js';
import { filledTranslations, optionalText } from './field-values.js';
import { LanguageGroups } from './language-groups.js';
import { SettingsForm } from './settings-form.js';

const LINKS = [
  { key: 'terms_url', label: 'Terms of sale' },
  { key: 'refund_policy_url', label: 'Refund policy' },
  { key: 'privacy_url', label: 'Privacy policy' },
] as const;
const FIELDS = LINKS.map((link) => `legal.${link.key}`);

type Links = Record<(typeof LINKS)[number]['key'], string>;
const NO_LINKS: Links = { terms_url: '', refund_policy_url: '', privacy_url: '' };
const translatedField = (language: Language, key: keyof Links) => `legal.translations.${language}.${key}`;

/** The saved translations as the form holds them. */
const linksByLanguage = (organization: Organization): Partial<Record<Language, Links>> =>
  Object.fromEntries(
    LANGUAGES.flatMap((language) => {
      const saved = organization.legal.translations?.[language];
      return saved ? [[language, { ...NO_LINKS, ...saved }]] : [];
    }),
  );

export function LegalLinksForm({ organization }: { organization: Organization }) {
  const [links, setLinks] = useState<Links>({
    terms_url: organization.legal.terms_url ?? '',
    refund_policy_url: organization.legal.refund_policy_url ?? '',
    privacy_url: organization.legal.privacy_url ?? '',
  });
  const [translations, setTranslations] = useState(() => linksByLanguage(organization));
  return (
    <SettingsForm
      id="legal"
      title="Legal links"
      intro="The checkout links to these pages under its order button. Leave one empty to show no link."
      fieldNames={[
        ...FIELDS,
        ...LANGUAGES.filter((language) => translations[language]).flatMap((language) =>
          LINKS.map((link) => translatedField(language, link.key)),
        ),
      ]}
      patch={() => ({
        legal: {
          terms_url: optionalText(links.terms_url),
          refund_policy_url: optionalText(links.refund_policy_url),
          privacy_url: optionalText(links.privacy_url),
          translations: filledTranslations(translations),
        },
      })}
    >
      {(errors) => (
        <>
          {LINKS.map((link) => (
            <TextField
              key={link.key}
              name={`legal.${link.key}`}
              label={`${link.label} URL`}
              type="url"
              autoComplete="url"
              value={links[link.key]}
              onChange={(value) => setLinks((current) => ({ ...current, [link.key]: value }))}
              error={errors[`legal.${link.key}`]}
              required={false}
            />
          ))}
          <LanguageGroups
            form="legal"
            legend="Links in other languages"
            languages={organization.languages}
            values={translations}
            empty={NO_LINKS}
            onChange={setTranslations}
            firstField={(language) => translatedField(language, 'terms_url')}
          >
            {(language, name) =>
              LINKS.map((link) => (
                <TextField
                  key={link.key}
                  name={translatedField(language, link.key)}
                  label={`${link.label} URL (${name})`}
                  hint="Empty shows the link above."
                  type="url"
                  autoComplete="url"
                  value={translations[language]?.[link.key] ?? ''}
                  onChange={(value) =>
                    setTranslations((current) => ({
                      ...current,
                      [language]: { ...NO_LINKS, ...current[language], [link.key]: value },
                    }))
                  }
                  error={errors[translatedField(language, link.key)]}
                  required={false}
                />
              ))
            }
          </LanguageGroups>
        </>
      )}
    </SettingsForm>
  );
}
