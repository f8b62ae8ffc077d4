import { FIELD_RULES, IGAMING_TEMPLATE } from '../../core/templates';

/** The dashboard's modules by a path TypeScript does not follow: they are ESM with extensionless imports, which the root (CommonJS) check refuses. */
const WEB = '../../web/src/features/automations/editor/components/code/';

/**
 * The editor's field types (web/src/…/code/fieldTypes.ts) copy the template's, which the dashboard cannot import: this
 * keeps the copy true. Its own logic is tested beside it (fieldTypes.test.ts).
 */
describe('editor field types', () => {
  it('the editor’s field types are the template’s (core/templates.ts FIELD_RULES) for every event field it types', async () => {
    const { EVENT_FIELD_TYPES, MONEY_FIELDS } = await import(`${WEB}fieldTypes.js`);
    const server: Record<string, Record<string, string>> = {};
    for (const [key, rule] of Object.entries(FIELD_RULES)) {
      const [type, field] = key.split('.') as [string, string];
      if (!(type in IGAMING_TEMPLATE.schema.event_types)) continue;
      (server[type] ??= {})[field] = rule.kind === 'number' ? 'number' : 'string';
    }
    expect(EVENT_FIELD_TYPES).toEqual(server);
    for (const [type, fields] of Object.entries(MONEY_FIELDS as Record<string, string[]>)) {
      const spec = IGAMING_TEMPLATE.schema.event_types[type]!;
      for (const field of fields) expect([type, field, [...spec.required, ...spec.optional].includes(field)]).toEqual([type, field, true]);
    }
  });
});
