export type Params = Record<string, unknown>;
export type Group = 'trigger' | 'condition' | 'action';

/** Lists catalog.ts knows and offers as suggestions, named by the server's field declarations. */
export type SuggestionList = 'events' | 'stateKeys' | 'eventTypes';

/** How one param is edited in the inspector; `name` is the key in `params`. */
export type FieldSpec =
  | {
      kind: 'text';
      name: string;
      label: string;
      required?: boolean;
      hint?: string;
      placeholder?: string;
      suggestions?: readonly string[];
      multiline?: boolean;
      type?: 'email' | 'url';
    }
  | { kind: 'expression'; name: string; label: string; required?: boolean; hint?: string; placeholder?: string }
  | { kind: 'select'; name: string; label: string; options: ReadonlyArray<readonly [string, string]>; optional?: boolean }
  | { kind: 'number'; name: string; label: string; min: number; max: number; hint?: string }
  | { kind: 'value'; name: string; label: string; required?: boolean; hint?: string }
  | { kind: 'object'; name: string; label: string; hint?: string; stringsOnly?: boolean; keyLabel?: string }
  | { kind: 'schema'; name: string; label: string }
  | { kind: 'secret'; name: string; label: string }
  | { kind: 'connection'; name: string; label: string }
  | { kind: 'timezone'; name: string; label: string };

/** A field as the server declares it (core/automations/nodes/editor.ts): suggestions may name one of catalog.ts's lists. */
export type GeneratedField =
  | (Extract<FieldSpec, { kind: 'text' }> extends infer Text ? Omit<Text, 'suggestions'> & { suggestions?: SuggestionList | readonly string[] } : never)
  | Exclude<FieldSpec, { kind: 'text' }>;

/** One node type as nodes.generated.ts holds it (tools/scripts/nodeCatalog.ts). */
export interface GeneratedNodeSpec {
  label: string;
  group: Group;
  description: string;
  defaults: Params;
  fields: GeneratedField[];
  /** Labels of the two branches (`when: true`, `when: false`); null when the type's edges do not branch. */
  branches: readonly [string, string] | null;
}
