import { useId, useState } from 'react';
import { t } from '../lib/i18n.ts';
import { Icon } from './Icon.tsx';

interface Props {
  label: string;
  value: string;
  error: string | null;
  autoComplete: string;
  onInput: (value: string) => void;
  onBlur: () => void;
  placeholder?: string;
  /** The label stays readable by screen readers but is not shown (forms that show placeholders instead). */
  labelHidden?: boolean;
}

/** Labelled password input with a show/hide toggle (hidden by default) and its validation message. */
export function PasswordInput({ label, value, error, autoComplete, onInput, onBlur, placeholder, labelHidden = false }: Props) {
  const [visible, setVisible] = useState(false);
  const inputId = useId();
  const errorId = useId();
  return (
    <div className="password-field">
      <label htmlFor={inputId} className={labelHidden ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <div role="group" className="password-group">
        <input
          id={inputId}
          type={(visible ? 'text' : 'password') as 'text'}
          placeholder={placeholder}
          autoComplete={autoComplete}
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
          onBlur={onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
        />
        <button
          type="button"
          className="secondary outline toggle-visibility"
          aria-pressed={visible}
          aria-label={t(visible ? 'passwordInput.hide' : 'passwordInput.show', { field: label })}
          onClick={() => setVisible(!visible)}
        >
          <Icon name={visible ? 'eyeOff' : 'eye'} size={20} />
        </button>
      </div>
      <small id={errorId} className="field-error">
        {error}
      </small>
    </div>
  );
}
