import { useId, type ReactNode } from 'react';

interface BaseProps {
  label: string;
  error?: string | null;
  hint?: string;
}

/** What text inputs and text areas share: the label (starred when required), the control, and the message under it. */
function Field({
  id,
  messageId,
  label,
  required,
  error,
  hint,
  children,
}: BaseProps & { id: string; messageId: string; required?: boolean; children: ReactNode }) {
  return (
    <div className="admin-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {children}
      {(error || hint) && (
        <small id={messageId} className={error ? 'field-error' : 'field-hint'}>
          {error ?? hint}
        </small>
      )}
    </div>
  );
}

/** A labelled text/number/email input with its message under it. */
export function TextField({
  label,
  error,
  hint,
  value,
  onValue,
  type = 'text',
  required,
  autoComplete,
  inputMode,
}: BaseProps & {
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'number' | 'tel' | 'password' | 'url';
  required?: boolean;
  autoComplete?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
}) {
  const id = useId();
  const messageId = useId();
  return (
    <Field id={id} messageId={messageId} label={label} required={required} error={error} hint={hint}>
      <input
        id={id}
        type={type as 'text'}
        value={value}
        required={required}
        autoComplete={autoComplete ?? 'off'}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    </Field>
  );
}

export function TextArea({ label, error, value, onValue, required }: BaseProps & { value: string; onValue: (value: string) => void; required?: boolean }) {
  const id = useId();
  const messageId = useId();
  return (
    <Field id={id} messageId={messageId} label={label} required={required} error={error}>
      <textarea
        id={id}
        value={value}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    </Field>
  );
}

/** Note: selects listen to `input` (fired by every browser on a change) - see the export form. */
export function SelectField({
  label,
  error,
  value,
  onValue,
  options,
}: BaseProps & { value: string; onValue: (value: string) => void; options: { value: string; label: string }[] }) {
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} aria-invalid={error ? true : undefined} onInput={(e) => onValue(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && <small className="field-error">{error}</small>}
    </div>
  );
}

export function CheckboxField({
  label,
  checked,
  onValue,
  hint,
  disabled,
}: {
  label: string;
  checked: boolean;
  onValue: (value: boolean) => void;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="admin-field admin-checkbox">
      <label htmlFor={id}>
        {/* biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox with role switch exposes its checked state itself */}
        <input id={id} type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onValue(e.currentTarget.checked)} />
        {label}
      </label>
      {hint && <small className="field-hint">{hint}</small>}
    </div>
  );
}
