import { useId, useState } from 'react';
import { t } from '../../lib/i18n.ts';
import { Icon } from '../../components/Icon.tsx';

interface Props {
  label: string;
  placeholder: string;
  value: string;
  error: string | null;
  onInput: (value: string) => void;
  onBlur: () => void;
  autoComplete: string;
}

/** A password input with its show/hide toggle (hidden by default) and its validation message. */
export function PasswordField({ label, placeholder, value, error, onInput, onBlur, autoComplete }: Props) {
  const [visible, setVisible] = useState(false);
  const errorId = useId();
  const inputId = useId();
  return (
    <div className="password-field">
      <label htmlFor={inputId} className="visually-hidden">
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
          aria-label={visible ? t('resetPassword.hide', { field: label }) : t('resetPassword.show', { field: label })}
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
