// The offer form's "Translations" (docs/dashboard.md, "Catalogue"): the merchant adds a language the store has
// enabled and types the offer's text in it; an empty field shows the offer's own text (docs/api.md, "Translations").
import type { StoreLanguages } from '../../../contract/organization.js';
import type { Language } from '../../../i18n/languages.js';
import { Button } from '../../ui/button.js';
import { AddLanguage, useLanguageToAdd } from '../kit/add-language.js';
import { languageName } from '../kit/language-name.js';
import { focusField } from '../../ui/field-ids.js';
import { useAnnounce } from '../../ui/live-region.js';
import { TextField } from '../../ui/text-field.js';
import { FieldGroup } from './form-parts.js';
import {
  emptyLanguageText,
  shownLanguages,
  TRANSLATED_TEXT_FIELDS,
  type LanguageTextValues,
  type TranslatedTextField,
  type TranslationValues,
} from './offer-translation-values.js';

const LABELS: Record<TranslatedTextField, string> = {
  offer_name: 'Offer name',
  offer_title: 'Offer title',
  bump_text: 'Order bump line',
  item_name: 'Item name',
  override_initial_item_name: "First order's item name",
};

/** What an empty field shows instead, said in its hint. */
const fallbackHint = (base: string) => (base.trim() === '' ? undefined : `Empty shows “${base.trim()}”.`);

export function OfferTranslationsPart(props: {
  values: TranslationValues;
  /** the offer's own text, shown where a field is left empty */
  base: Record<TranslatedTextField, string> & { item_options: { name: string; value: string }[] };
  /** the store's languages; null while they are read */
  languages: StoreLanguages | null;
  fields: Record<string, string>;
  onChange: (values: TranslationValues) => void;
}) {
  const { values, base, languages, fields, onChange } = props;
  const announce = useAnnounce();
  const shown = shownLanguages(values);
  const { addable, pick, choose } = useLanguageToAdd(languages, shown);

  const add = () => {
    if (pick === null) return;
    onChange({ ...values, [pick]: emptyLanguageText(base.item_options.length) });
    announce(`${languageName(pick)} added.`);
    requestAnimationFrame(() => focusField(`translations.${pick}.offer_name`));
  };
  const remove = (language: Language) => {
    const { [language]: _removed, ...rest } = values;
    onChange(rest);
    announce(`${languageName(language)} translations removed.`);
    requestAnimationFrame(() => focusField('translations.language'));
  };
  const change = (language: Language, entry: LanguageTextValues) =>
    onChange({ ...values, [language]: entry });

  return (
    <FieldGroup legend="Translations" name="translations" error={fields.translations}>
      <p className="field__hint">
        The offer&apos;s text for shoppers whose checkout is in another language. A field left empty shows the
        text above.
      </p>
      {shown.map((language) => (
        <LanguageFields
          key={language}
          language={language}
          enabled={languages === null || languages.enabled.includes(language)}
          entry={values[language] ?? emptyLanguageText(base.item_options.length)}
          base={base}
          fields={fields}
          onChange={(entry) => change(language, entry)}
          onRemove={() => remove(language)}
        />
      ))}
      {languages === null ? (
        <p className="field__hint">Reading the store&apos;s languages…</p>
      ) : pick === null ? (
        <p className="field__hint">
          {shown.length === 0
            ? 'Only the default language is enabled: enable others in Settings, Languages, to translate the offer.'
            : 'Every enabled language has its fields here.'}
        </p>
      ) : (
        <AddLanguage
          name="translations.language"
          className="catalogue-row"
          addable={addable}
          pick={pick}
          onPick={choose}
          onAdd={add}
        />
      )}
    </FieldGroup>
  );
}

function LanguageFields(props: {
  language: Language;
  enabled: boolean;
  entry: LanguageTextValues;
  base: Record<TranslatedTextField, string> & { item_options: { name: string; value: string }[] };
  fields: Record<string, string>;
  onChange: (entry: LanguageTextValues) => void;
  onRemove: () => void;
}) {
  const { language, entry, base, fields, onChange } = props;
  const name = languageName(language);
  const prefix = `translations.${language}`;
  const setOption = (index: number, part: 'name' | 'value', text: string) =>
    onChange({
      ...entry,
      item_options: entry.item_options.map((option, i) =>
        i === index ? { ...option, [part]: text } : option,
      ),
    });
  return (
    <FieldGroup
      legend={props.enabled ? name : `${name} (not enabled: no checkout shows it)`}
      name={prefix}
      error={fields[prefix]}
    >
      <div className="admin-grid">
        {TRANSLATED_TEXT_FIELDS.map((field) => (
          <TextField
            key={field}
            name={`${prefix}.${field}`}
            label={`${LABELS[field]} (${name})`}
            required={false}
            hint={fallbackHint(base[field])}
            autoComplete="off"
            value={entry[field]}
            onChange={(text) => onChange({ ...entry, [field]: text })}
            error={fields[`${prefix}.${field}`]}
          />
        ))}
      </div>
      {entry.item_options.length > 0 ? (
        <FieldGroup
          legend={`Options (${name})`}
          name={`${prefix}.item_options`}
          error={fields[`${prefix}.item_options`]}
        >
          {entry.item_options.map((option, index) => (
            <div className="catalogue-row" key={index}>
              <TextField
                name={`${prefix}.item_options.${index}.name`}
                label={`Option ${index + 1} name (${name})`}
                required={false}
                hint={fallbackHint(base.item_options[index]?.name ?? '')}
                autoComplete="off"
                value={option.name}
                onChange={(text) => setOption(index, 'name', text)}
                error={fields[`${prefix}.item_options.${index}.name`]}
              />
              <TextField
                name={`${prefix}.item_options.${index}.value`}
                label={`Option ${index + 1} value (${name})`}
                required={false}
                hint={fallbackHint(base.item_options[index]?.value ?? '')}
                autoComplete="off"
                value={option.value}
                onChange={(text) => setOption(index, 'value', text)}
                error={fields[`${prefix}.item_options.${index}.value`]}
              />
            </div>
          ))}
        </FieldGroup>
      ) : null}
      <Button variant="secondary" onClick={props.onRemove}>
        Remove {name}
      </Button>
    </FieldGroup>
  );
}
