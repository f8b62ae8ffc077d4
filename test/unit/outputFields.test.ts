import { ACTION_OUTPUT_SCHEMAS } from '../../core/automations/runOutput';

/** The editor's completions copy each action's output fields (web/src cannot import core): this keeps the copy true. */
it('the editor offers exactly the output fields each action publishes', async () => {
  const { OUTPUT_FIELDS } = await import('../../web/src/features/automations/editor/generated/outputFields.js');
  for (const [type, schema] of Object.entries(ACTION_OUTPUT_SCHEMAS)) {
    expect({ type, fields: [...(OUTPUT_FIELDS[type] ?? [])].sort() }).toEqual({ type, fields: Object.keys(schema.properties as object).sort() });
  }
});
