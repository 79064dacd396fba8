import { useId, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { t } from '../../lib/i18n.ts';

interface Props {
  label: string;
  value: string;
  error: string | null;
  autoComplete: string;
  onInput: (value: string) => void;
  onBlur: () => void;
}

/** Labelled password input with a show/hide toggle (hidden by default) and its message. */
export function PasswordInput({ label, value, error, autoComplete, onInput, onBlur }: Props) {
  const [visible, setVisible] = useState(false);
  const inputId = useId();
  const errorId = useId();
  return (
    <div class="password-field">
      <label for={inputId}>{label}</label>
      <div role="group" class="password-group">
        <input
          id={inputId}
          type={(visible ? 'text' : 'password') as 'text'}
          autoComplete={autoComplete}
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
          onBlur={onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
        />
        <button
          type="button"
          class="secondary outline toggle-visibility"
          aria-pressed={visible}
          aria-label={visible ? t('settings.hidePassword', { field: label }) : t('settings.showPassword', { field: label })}
          onClick={() => setVisible(!visible)}
        >
          <Icon name={visible ? 'eyeOff' : 'eye'} size={20} />
        </button>
      </div>
      <small id={errorId} class="field-error">
        {error}
      </small>
    </div>
  );
}
