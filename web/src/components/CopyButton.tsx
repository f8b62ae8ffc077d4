import { useState } from 'react';

/** Copies a value (a new key, an invite link) and says so to screen readers too. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('done');
    } catch {
      setCopied('failed');
    }
    setTimeout(() => setCopied('idle'), 2500);
  };
  return (
    <>
      <button type="button" className="button button-small" onClick={() => void copy()}>
        {label}
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {copied === 'done' ? 'Copied to the clipboard' : copied === 'failed' ? 'Copying failed; select the text and copy it' : ''}
      </span>
      {copied === 'done' && (
        <span className="copied" aria-hidden="true">
          Copied
        </span>
      )}
    </>
  );
}

/** A secret or link shown in full, selectable, with a copy button. */
export function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <div className="copy-field">
      <span className="copy-label">{label}</span>
      <code className="copy-value" tabIndex={0} aria-label={label}>
        {value}
      </code>
      <CopyButton value={value} />
    </div>
  );
}
