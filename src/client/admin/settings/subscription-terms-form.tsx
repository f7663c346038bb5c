// The wording a subscriber agrees to, and its version (docs/checkout-rules.md, "Subscription terms").
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { TextArea } from '../../ui/text-area.js';
import { TextField } from '../../ui/text-field.js';
import { SettingsForm } from './settings-form.js';

const FIELDS = ['subscription_terms.text', 'subscription_terms.version'] as const;

export function SubscriptionTermsForm({ organization }: { organization: Organization }) {
  const saved = organization.subscription_terms;
  const [text, setText] = useState(saved.text);
  const [version, setVersion] = useState(saved.version);
  const textChanged = text.trim() !== saved.text;
  const sameVersion = version.trim() === saved.version;
  return (
    <SettingsForm
      id="terms"
      title="Subscription terms"
      intro="The text beside the subscription terms box. Each order records the version the shopper agreed to."
      fieldNames={FIELDS}
      patch={() => ({ subscription_terms: { text, version } })}
    >
      {(errors) => (
        <>
          <TextArea
            name="subscription_terms.text"
            label="Terms text"
            maxLength={2000}
            value={text}
            onChange={setText}
            error={errors['subscription_terms.text']}
            hint="Up to 2,000 characters."
          />
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
