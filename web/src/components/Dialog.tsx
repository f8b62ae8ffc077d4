import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { ApiFailure } from '../api/errors';
import { ErrorNotice } from './Status';

interface DialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  onClose: () => void;
  /** Buttons at the foot; a Close button is added when there are none. */
  actions?: ReactNode;
  wide?: boolean;
}

/**
 * A modal on the native `<dialog>`: the browser traps focus, Escape closes it, and focus returns to the
 * control that opened it.
 */
export function Dialog({ open, title, children, onClose, actions, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          <div className="dialog-body">{children}</div>
          <div className="dialog-actions">
            {actions ?? (
              <button type="button" className="button" onClick={onClose}>
                Close
              </button>
            )}
          </div>
        </>
      )}
    </dialog>
  );
}

interface ConfirmProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  error?: ApiFailure;
  danger?: boolean;
  /** The user must type this exact text first (erasure, deletion). */
  typeToConfirm?: string;
}

/** A decision with consequences: says what will happen, and only the explicit button does it. */
export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onCancel, pending, error, danger, typeToConfirm }: ConfirmProps) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  useEffect(() => {
    if (!open) setTyped('');
  }, [open]);
  const blocked = typeToConfirm !== undefined && typed !== typeToConfirm;
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button" onClick={onCancel} disabled={pending}>
            Cancel
          </button>
          <button type="button" className={danger ? 'button button-danger' : 'button button-primary'} onClick={onConfirm} disabled={pending || blocked}>
            {pending ? 'Working…' : confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {typeToConfirm !== undefined && (
        <div className="field">
          <label htmlFor={inputId}>
            Type <strong>{typeToConfirm}</strong> to confirm
          </label>
          <input id={inputId} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
        </div>
      )}
      <ErrorNotice error={error} />
    </Dialog>
  );
}
