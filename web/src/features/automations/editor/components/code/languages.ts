import { StreamLanguage, type StringStream } from '@codemirror/language';

/**
 * Highlighting for JSONata (conditions, filters) and for text with `{{ JSONata }}` templates. JSONata has no
 * CodeMirror grammar on the registry, so these are small stream tokenizers: enough to colour strings, numbers,
 * `$functions`, operators and the template braces; the server has the final word on what compiles.
 */

const KEYWORDS = /^(and|or|in|true|false|null|function)\b/;

function jsonataToken(stream: StringStream): string | null {
  if (stream.eatSpace()) return null;
  if (stream.match(/^\/\*[\s\S]*?(\*\/|$)/)) return 'comment';
  if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/)) return 'string';
  if (stream.match(/^`[^`]*`?/)) return 'propertyName';
  if (stream.match(/^-?\d+(\.\d+)?([eE][+-]?\d+)?/)) return 'number';
  if (stream.match(KEYWORDS)) return 'keyword';
  if (stream.match(/^\$[A-Za-z0-9_]*/)) return 'variableName';
  if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) return 'propertyName';
  if (stream.match(/^(:=|!=|<=|>=|~>|\?:|\?\?|\.\.|[-+*/%&|<>=!?:^#@])/)) return 'operator';
  stream.next();
  return 'punctuation';
}

/** A JSONata expression (a condition or a filter). */
export const jsonataLanguage = StreamLanguage.define<null>({
  name: 'jsonata',
  startState: () => null,
  token: (stream) => jsonataToken(stream),
});

/** Text whose `{{ … }}` parts are JSONata. */
export const templateLanguage = StreamLanguage.define<{ inside: boolean }>({
  name: 'template',
  startState: () => ({ inside: false }),
  copyState: (state) => ({ ...state }),
  token(stream, state) {
    if (!state.inside) {
      if (stream.match('{{')) {
        state.inside = true;
        return 'brace';
      }
      if (!stream.skipTo('{{')) stream.skipToEnd();
      return null;
    }
    if (stream.match('}}')) {
      state.inside = false;
      return 'brace';
    }
    return jsonataToken(stream);
  },
});

/** Whether the cursor (the text before it) sits inside an unclosed `{{`: where a template takes JSONata. */
export function insideTemplate(before: string): boolean {
  const open = before.lastIndexOf('{{');
  return open >= 0 && before.indexOf('}}', open) < 0;
}
