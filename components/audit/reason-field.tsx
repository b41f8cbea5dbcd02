'use client';

/** The "why" the audit trail records; required for destructive and bulk actions. */
export function ReasonField({
  value,
  onChange,
  required,
  error,
  disabled,
}: {
  value: string;
  onChange: (v: string) => void;
  required: boolean;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <label className="grid gap-1">
      <span>
        Reason{required ? '' : ' (optional)'}{' '}
        <span className="text-xs text-zinc-500 dark:text-zinc-400">— recorded in the audit trail</span>
      </span>
      <input
        className="input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="confirm-reason"
        aria-label="Reason"
        maxLength={1000}
        autoComplete="off"
        required={required}
        disabled={disabled}
        placeholder={required ? 'e.g. ticket OPS-123: card processor outage fixed' : ''}
      />
      {error ? (
        <span className="text-xs text-red-600" data-testid="confirm-reason-error">
          {error}
        </span>
      ) : null}
    </label>
  );
}
