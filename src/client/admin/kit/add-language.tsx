// The picker a translated form adds a language with: the enabled languages not yet shown, and an Add button.
import type { Language } from '../../../i18n/languages.js';
import { Button } from '../../ui/button.js';
import { SelectField } from '../../ui/select-field.js';
import { languageName } from './language-name.js';

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
