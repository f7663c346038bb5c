// A settings form's text per language (docs/api.md, "Translations"): a group with its legend for each language the
// merchant added, and a choice of the store's other enabled languages to add; an empty field shows the store's text.
import type { ReactNode } from 'react';
import type { StoreLanguages } from '../../../contract/organization.js';
import { LANGUAGES, type Language } from '../../../i18n/languages.js';
import { Button } from '../../ui/button.js';
import { AddLanguage, useLanguageToAdd } from '../kit/add-language.js';
import { languageName } from '../kit/language-name.js';
import { focusField } from '../../ui/field-ids.js';
import { useAnnounce } from '../../ui/live-region.js';

export function LanguageGroups<Values>(props: {
  /** the form's id, so its language picker's name is its own */
  form: string;
  /** the heading of the whole part ("Terms text in other languages") */
  legend: string;
  languages: StoreLanguages;
  values: Partial<Record<Language, Values>>;
  empty: Values;
  onChange: (values: Partial<Record<Language, Values>>) => void;
  /** the field the focus moves to when a language is added */
  firstField: (language: Language) => string;
  children: (language: Language, name: string) => ReactNode;
}) {
  const { values, languages, onChange } = props;
  const announce = useAnnounce();
  const shown = LANGUAGES.filter((language) => values[language] !== undefined);
  const { addable, pick, choose } = useLanguageToAdd(languages, shown);
  const picker = `${props.form}.translations.language`;

  const add = () => {
    if (pick === null) return;
    onChange({ ...values, [pick]: props.empty });
    announce(`${languageName(pick)} added.`);
    requestAnimationFrame(() => focusField(props.firstField(pick)));
  };
  const remove = (language: Language) => {
    const { [language]: _removed, ...rest } = values;
    onChange(rest as Partial<Record<Language, Values>>);
    announce(`${languageName(language)} removed.`);
    requestAnimationFrame(() => focusField(picker));
  };

  return (
    <fieldset className="settings-group">
      <legend className="field__label">{props.legend}</legend>
      {shown.map((language) => {
        const name = languageName(language);
        return (
          <fieldset key={language} className="settings-language">
            <legend className="field__label">
              {languages.enabled.includes(language) ? name : `${name} (not enabled: no checkout shows it)`}
            </legend>
            {props.children(language, name)}
            <Button variant="secondary" onClick={() => remove(language)}>
              Remove {name}
            </Button>
          </fieldset>
        );
      })}
      {pick === null ? (
        <p className="field__hint">
          {shown.length === 0
            ? 'Only the default language is enabled: enable others under Languages below to translate this.'
            : 'Every enabled language has its fields here.'}
        </p>
      ) : (
        <AddLanguage
          name={picker}
          className="settings-language-picker"
          addable={addable}
          pick={pick}
          onPick={choose}
          onAdd={add}
        />
      )}
    </fieldset>
  );
}
