import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { linter } from '@codemirror/lint';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { complete } from './complete';
import { insideTemplate, jsonataLanguage, templateLanguage } from './languages';
import type { Field } from './scope';

/** `jsonata`: a whole expression; `template`: text with `{{ }}`; `json`: a JSON value whose strings may hold templates. */
export type CodeMode = 'jsonata' | 'template' | 'json';

export interface CodeEditorProps {
  value: string;
  onChange: (text: string) => void;
  mode: CodeMode;
  /** The run context's names, offered as completions. */
  fields: Field[];
  labelledBy: string;
  describedBy?: string;
  invalid: boolean;
  readOnly: boolean;
  placeholder?: string;
}

/** How far back from the cursor completions look for the path being typed. */
const LOOK_BACK = 200;

const THEME = EditorView.theme({
  '&': { fontSize: '0.9rem', border: '1px solid var(--line)', borderRadius: 'var(--radius)', background: 'var(--paper)' },
  '&.cm-focused': { outline: '2px solid #2563eb', outlineOffset: '1px' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', padding: '0.35rem 0', minHeight: '1.6rem' },
  '.cm-scroller': { maxHeight: '16rem', overflow: 'auto' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { background: '#1d4ed8', color: '#fff' },
});

function languageOf(mode: CodeMode): Extension {
  if (mode === 'json') return [json(), linter(jsonParseLinter(), { delay: 300 })];
  return mode === 'jsonata' ? jsonataLanguage : templateLanguage;
}

function attributesOf(props: Pick<CodeEditorProps, 'labelledBy' | 'describedBy' | 'invalid'>): Extension {
  return EditorView.contentAttributes.of({
    'aria-labelledby': props.labelledBy,
    ...(props.describedBy ? { 'aria-describedby': props.describedBy } : {}),
    ...(props.invalid ? { 'aria-invalid': 'true' } : {}),
  });
}

/**
 * A CodeMirror 6 editor for one field: JSONata, template or JSON highlighting, the run context's names as completions
 * (in a template or JSON, only inside `{{ }}`), its own undo history while it has the focus, and Tab left to move the
 * focus on. The text is the caller's: every change is reported as typed, and a new `value` from outside (an undo of the
 * whole editor) replaces the text.
 */
export default function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const compartments = useRef({ language: new Compartment(), attributes: new Compartment(), readOnly: new Compartment(), placeholder: new Compartment() });

  useEffect(() => {
    const { language, attributes, readOnly, placeholder } = compartments.current;
    const source = (context: CompletionContext): CompletionResult | null => {
      const before = context.state.sliceDoc(0, context.pos);
      if (latest.current.mode !== 'jsonata' && !insideTemplate(before)) return null;
      // A path being typed is short: looking back further only costs time on long texts.
      const start = Math.max(0, context.pos - LOOK_BACK);
      const found = complete(latest.current.fields, before.slice(start));
      if (!found) return null;
      return { from: start + found.from, options: found.options, validFor: /^[\w$`-]*$/ };
    };
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          history(),
          closeBrackets(),
          bracketMatching(),
          syntaxHighlighting(defaultHighlightStyle),
          autocompletion({ override: [source], icons: false }),
          keymap.of([...closeBracketsKeymap, ...completionKeymap, ...historyKeymap, ...defaultKeymap]),
          EditorView.lineWrapping,
          THEME,
          language.of(languageOf(props.mode)),
          attributes.of(attributesOf(props)),
          readOnly.of([EditorState.readOnly.of(props.readOnly), EditorView.editable.of(!props.readOnly)]),
          placeholder.of(props.placeholder ? placeholderText(props.placeholder) : []),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // The view is made once; the effects below keep it in step with the props.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const current = view.current;
    if (!current || current.state.doc.toString() === props.value) return;
    current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: props.value } });
  }, [props.value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.language.reconfigure(languageOf(props.mode)) });
  }, [props.mode]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.attributes.reconfigure(attributesOf(props)) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.labelledBy, props.describedBy, props.invalid]);

  useEffect(() => {
    view.current?.dispatch({
      effects: compartments.current.readOnly.reconfigure([EditorState.readOnly.of(props.readOnly), EditorView.editable.of(!props.readOnly)]),
    });
  }, [props.readOnly]);

  return <div ref={host} className="code-editor" />;
}
