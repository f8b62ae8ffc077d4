import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import type { FieldProblem } from '../api/errors';

interface Common {
  label: ReactNode;
  hint?: ReactNode;
  problems?: FieldProblem[];
}

function Described({ id, hint, problems }: { id: string; hint?: ReactNode; problems?: FieldProblem[] }) {
  return (
    <>
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {problems && problems.length > 0 && (
        <span className="field-error" id={`${id}-error`}>
          {problems.map((problem) => problem.message).join('; ')}
        </span>
      )}
    </>
  );
}

function describedBy(id: string, hint: unknown, problems?: FieldProblem[]): string | undefined {
  const ids = [hint ? `${id}-hint` : '', problems?.length ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

/** A labelled input whose hint and the API's problems for it are announced with it. */
export function TextField({ label, hint, problems, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={problems?.length ? true : undefined} aria-describedby={describedBy(id, hint, problems)} {...input} />
      <Described id={id} hint={hint} problems={problems} />
    </div>
  );
}

export function TextArea({ label, hint, problems, ...input }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={problems?.length ? true : undefined} aria-describedby={describedBy(id, hint, problems)} {...input} />
      <Described id={id} hint={hint} problems={problems} />
    </div>
  );
}

export function SelectField({ label, hint, problems, children, ...select }: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={problems?.length ? true : undefined} aria-describedby={describedBy(id, hint, problems)} {...select}>
        {children}
      </select>
      <Described id={id} hint={hint} problems={problems} />
    </div>
  );
}

export function Checkbox({ label, hint, ...input }: { label: ReactNode; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field field-check">
      <input id={id} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}
