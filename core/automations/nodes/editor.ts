/**
 * How the dashboard's inspector edits a node type's params, declared in the type's folder and copied into the
 * dashboard by tools/scripts/generate-node-catalog.ts (web/src cannot import core): plain data, no React.
 */

/** Lists the dashboard knows and offers as suggestions: the event names, the state keys, the template's event types. */
export type SuggestionList = 'events' | 'stateKeys' | 'eventTypes';

/** How one param is edited in the inspector; `name` is the key in `params`. */
export type EditorField =
  | {
      kind: 'text';
      name: string;
      label: string;
      required?: boolean;
      hint?: string;
      placeholder?: string;
      suggestions?: SuggestionList | readonly string[];
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

export const TEMPLATE_HINT = 'Text, or {{ JSONata }} over the run, e.g. {{ trigger.entity.externalId }}';

/** The responsible-gambling gate's marks (docs/compliance.md), for the types that take ../purpose.ts `MARKETING_PARAMS`. */
export const MARKETING_FIELDS: EditorField[] = [
  {
    kind: 'select',
    name: 'purpose',
    label: 'Purpose',
    optional: true,
    options: [
      ['', 'Operational (not gated)'],
      ['marketing', 'Marketing to the player (gated)'],
      ['bonus', 'Bonus offer to the player (gated)'],
    ],
  },
  {
    kind: 'select',
    name: 'channel',
    label: 'Consent channel',
    optional: true,
    options: [
      ['', 'Every channel must consent'],
      ['email', 'Email'],
      ['sms', 'SMS'],
      ['push', 'Push'],
      ['phone', 'Phone'],
    ],
  },
];
