// The store's legal links, shown under the checkout (docs/api.md, "legal").
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { TextField } from '../../ui/text-field.js';
import { optionalText } from './field-values.js';
import { SettingsForm } from './settings-form.js';

const LINKS = [
  { key: 'terms_url', label: 'Terms of sale' },
  { key: 'refund_policy_url', label: 'Refund policy' },
  { key: 'privacy_url', label: 'Privacy policy' },
] as const;
const FIELDS = LINKS.map((link) => `legal.${link.key}`);

type Links = Record<(typeof LINKS)[number]['key'], string>;

export function LegalLinksForm({ organization }: { organization: Organization }) {
  const [links, setLinks] = useState<Links>({
    terms_url: organization.legal.terms_url ?? '',
    refund_policy_url: organization.legal.refund_policy_url ?? '',
    privacy_url: organization.legal.privacy_url ?? '',
  });
  return (
    <SettingsForm
      id="legal"
      title="Legal links"
      intro="The checkout links to these pages under its order button. Leave one empty to show no link."
      fieldNames={FIELDS}
      patch={() => ({
        legal: {
          terms_url: optionalText(links.terms_url),
          refund_policy_url: optionalText(links.refund_policy_url),
          privacy_url: optionalText(links.privacy_url),
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
        </>
      )}
    </SettingsForm>
  );
}
