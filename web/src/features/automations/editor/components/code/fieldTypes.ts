/** The JSON types an expression's comparison can be checked against. */
export type FieldType = 'number' | 'string' | 'boolean';

/** How a money field's unit is written wherever a designer reads or types one (spec 2.13: minor currency units). */
export const MONEY_UNIT = 'minor units, e.g. 5000 = 50.00 EUR';

/**
 * The types of the iGaming template's event fields (core/templates.ts `FIELD_RULES`, spec 2.13), by event type: a
 * timestamp or a currency is text. test/unit/editorFieldTypes.test.ts keeps this copy equal to the server's.
 */
export const EVENT_FIELD_TYPES: Readonly<Record<string, Readonly<Record<string, FieldType>>>> = {
  transaction: { amount: 'number', currency: 'string', type: 'string', status: 'string', timestamp: 'string' },
  game_activity: { bet_amount: 'number', win_amount: 'number', currency: 'string' },
  kyc: { document_type: 'string', status: 'string', completed_at: 'string', expires_at: 'string' },
};

/** Amounts in minor currency units (spec 2.13: a transaction's amount; a game round's bet and win and a bonus's amount read alike). */
export const MONEY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  transaction: ['amount'],
  game_activity: ['bet_amount', 'win_amount'],
  bonus: ['amount'],
};

/** A JSON Schema property's type as a comparison sees it (`integer` is a number); undefined when it says none. */
export function schemaType(property: unknown): FieldType | undefined {
  const type = (property as { type?: unknown } | null)?.type;
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'string' || type === 'boolean') return type;
  return undefined;
}

/** 150000 → "1,500.00": a minor-units amount as the major units it stands for (two decimals, as EUR). */
export const majorUnits = (minor: number): string => (minor / 100).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
