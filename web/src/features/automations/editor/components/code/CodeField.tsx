import { lazy, Suspense, useId, useMemo, useRef, type ReactNode } from 'react';
import type { FieldProblem } from '../../../../../api/errors';
import type { CodeMode } from './CodeEditor';
import { ExpressionNotes } from './ExpressionNotes';
import { ExpressionPreview } from './ExpressionPreview';
import { contextFields, useCodeScope } from './scope';
import './code.css';

/** CodeMirror is its own chunk (~140 KB gzipped with its languages): loaded once a step with a code field is opened. */
const loadEditor = () => import('./CodeEditor');
const CodeEditor = lazy(loadEditor);
/** Starts fetching the editor chunk early (when the workflow editor opens), so a step's form shows it at once. */
export const preloadCodeEditor = (): void => void loadEditor();

interface Props {
  label: ReactNode;
  hint?: ReactNode;
  problems?: FieldProblem[];
  /** A problem found while typing (JSON that does not parse), shown like the API's. */
  typing?: string | null;
  value: string;
  onChange: (text: string) => void;
  mode: CodeMode;
  readOnly?: boolean;
  placeholder?: string;
  /** Shows the live value next to the field: a condition's true/false, a template's rendering. */
  preview?: 'condition' | 'template';
}

/** A labelled code field: the editor, its hint and problems announced with it, and the expression's live preview. */
export function CodeField({ label, hint, problems, typing, value, onChange, mode, readOnly = false, placeholder, preview }: Props) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const scope = useCodeScope();
  const fields = useMemo(() => contextFields(scope), [scope]);
  const messages = [...(problems ?? []).map((problem) => problem.message), ...(typing ? [typing] : [])];
  const describedBy =
    [hint ? `${id}-hint` : '', messages.length ? `${id}-error` : '', preview ? `${id}-preview ${id}-notes` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field code-field" ref={box}>
      <label id={`${id}-label`} onClick={() => box.current?.querySelector<HTMLElement>('.cm-content')?.focus()}>
        {label}
      </label>
      <Suspense fallback={<div className="code-loading">Loading the editor…</div>}>
        <CodeEditor
          value={value}
          onChange={onChange}
          mode={mode}
          fields={fields}
          labelledBy={`${id}-label`}
          describedBy={describedBy}
          invalid={messages.length > 0}
          readOnly={readOnly || (scope?.readOnly ?? false)}
          placeholder={placeholder}
        />
      </Suspense>
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {messages.length > 0 && (
        <span className="field-error" id={`${id}-error`}>
          {messages.join('; ')}
        </span>
      )}
      {preview && <ExpressionPreview expression={value} kind={preview} id={`${id}-preview`} />}
      {preview && <ExpressionNotes fields={fields} expression={value} kind={preview} id={`${id}-notes`} />}
    </div>
  );
}
