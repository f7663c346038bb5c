// The picker a translated form adds a language with: the enabled languages not yet shown, and an Add button.
import { useState } from 'react';
import type { StoreLanguages } from '../../../contract/organization.js';
import type { Language } from '../../../i18n/languages.js';
import { Button } from '../../ui/button.js';
import { SelectField } from '../../ui/select-field.js';
import { languageName } from './language-name.js';

/**
 * The languages a translated form can add (enabled, not the default, not shown yet) and the one picked: the
 * merchant's choice while it can be added, else the first.
 */
export function useLanguageToAdd(languages: StoreLanguages | null, shown: readonly Language[]) {
  const addable = (languages?.enabled ?? []).filter(
    (language) => language !== languages?.default && !shown.includes(language),
  );
  const [chosen, setChosen] = useState<Language | null>(null);
  const pick = chosen !== null && addable.includes(chosen) ? chosen : (addable[0] ?? null);
  return { addable, pick, choose: setChosen };
}

export function AddLanguage(props: {
  name: string;
  className: string;
  addable: readonly Language[];
  pick: Language;
  onPick: (language: Language) => void;
  onAdd: () => void;
}) {
  return (
    <div className={props.className}>
      <SelectField
        name={props.name}
        label="Language"
        autoComplete="off"
        options={props.addable.map((language) => ({ value: language, label: languageName(language) }))}
        value={props.pick}
        onChange={(value) => props.onPick(value as Language)}
      />
      <Button variant="secondary" onClick={props.onAdd}>
        Add {languageName(props.pick)}
      </Button>
    </div>
  );
}
