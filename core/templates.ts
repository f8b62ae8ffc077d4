/** A template (spec 2.2): which entity types, event types, state keys and PII fields an operator's data has. */
export interface TemplateSchema {
  entity_types: Record<string, { required: string[]; optional: string[] }>;
  event_types: Record<string, { required: string[]; optional: string[] }>;
  state_keys: string[];
  pii_fields: Record<string, string[]>;
}

export interface Template {
  id: string;
  name: string;
  version: string;
  schema: TemplateSchema;
}

export interface FieldProblem {
  field: string;
  message: string;
}

export const IGAMING_TEMPLATE_ID = 'tpl_igaming';

/**
 * The iGaming template: the canonical data contract of spec 2.13 in snake_case. Event types are the
 * seven of spec 2.2 plus `kyc` (2.13 sends KYC fields "by an event of type kyc"; DESIGN.md).
 */
export const IGAMING_TEMPLATE: Template = {
  id: IGAMING_TEMPLATE_ID,
  name: 'iGaming',
  version: '1.0.0',
  schema: {
    entity_types: {
      player: {
        required: [],
        optional: ['country', 'date_of_birth', 'email', 'first_name', 'last_name', 'phone', 'language', 'status', 'jurisdiction', 'registered_at'],
      },
    },
    event_types: {
      transaction: { required: ['type', 'amount', 'currency'], optional: ['id', 'reference', 'player_id', 'status', 'timestamp', 'provider'] },
      game_activity: { required: ['game_id', 'bet_amount'], optional: ['game_name', 'win_amount', 'currency', 'round_id', 'provider', 'timestamp'] },
      session: { required: [], optional: ['session_id', 'started_at', 'ended_at', 'duration_seconds', 'device', 'country'] },
      bonus: { required: [], optional: ['bonus_id', 'type', 'amount', 'currency', 'status', 'timestamp'] },
      block: { required: [], optional: ['reason', 'source', 'until', 'timestamp'] },
      support: { required: [], optional: ['ticket_id', 'channel', 'subject', 'status', 'timestamp'] },
      affiliate: { required: [], optional: ['affiliate_id', 'campaign', 'tracking_code', 'timestamp'] },
      kyc: { required: [], optional: ['player_id', 'provider', 'document_type', 'status', 'completed_at', 'expires_at'] },
    },
    state_keys: ['balance', 'kyc_status', 'risk_score', 'loyalty_tier', 'compliance', 'consent'],
    pii_fields: { player: ['first_name', 'last_name', 'email', 'phone', 'date_of_birth'] },
  },
};

type FieldRule = { kind: 'string' | 'number' | 'timestamp' | 'currency'; allowed?: readonly string[] };

/** Types and allowed values of the canonical fields (spec 2.13), keyed `<entity or event type>.<field>`. */
export const FIELD_RULES: Record<string, FieldRule> = {
  'player.status': { kind: 'string', allowed: ['active', 'suspended', 'excluded', 'closed'] },
  'player.date_of_birth': { kind: 'timestamp' },
  'player.registered_at': { kind: 'timestamp' },
  'player.email': { kind: 'string' },
  'transaction.amount': { kind: 'number' },
  'transaction.currency': { kind: 'currency' },
  'transaction.type': { kind: 'string', allowed: ['deposit', 'withdrawal', 'bet', 'win', 'bonus', 'refund', 'adjustment'] },
  'transaction.status': { kind: 'string', allowed: ['pending', 'completed', 'failed', 'reversed', 'cancelled'] },
  'transaction.timestamp': { kind: 'timestamp' },
  'game_activity.bet_amount': { kind: 'number' },
  'game_activity.win_amount': { kind: 'number' },
  'game_activity.currency': { kind: 'currency' },
  'kyc.document_type': { kind: 'string', allowed: ['passport', 'driving_license', 'national_id', 'utility_bill', 'selfie'] },
  'kyc.status': { kind: 'string', allowed: ['pending', 'approved', 'rejected', 'requires_review', 'expired'] },
  'kyc.completed_at': { kind: 'timestamp' },
  'kyc.expires_at': { kind: 'timestamp' },
};

function checkRule(field: string, rule: FieldRule, value: unknown): string | null {
  switch (rule.kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'currency':
      return typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? null : 'must be an ISO 4217 currency code';
    case 'timestamp':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? null : 'must be an ISO 8601 date or timestamp';
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      return rule.allowed && !rule.allowed.includes(value) ? `must be one of ${rule.allowed.join(', ')}` : null;
  }
  return `${field} is not checkable`;
}

function checkFields(kind: string, spec: { required: string[] }, data: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of spec.required) {
    if (data[field] === undefined || data[field] === null) problems.push({ field: `data.${field}`, message: 'is required' });
  }
  for (const [field, value] of Object.entries(data)) {
    const rule = FIELD_RULES[`${kind}.${field}`];
    if (!rule || value === null || value === undefined) continue;
    const problem = checkRule(field, rule, value);
    if (problem) problems.push({ field: `data.${field}`, message: problem });
  }
  return problems;
}

/** Template rules for an entity's data; fields outside the template are stored as given. */
export function validateEntity(template: TemplateSchema, entityType: string, data: Record<string, unknown>): FieldProblem[] {
  const spec = template.entity_types[entityType];
  if (!spec) return [{ field: 'entityType', message: `must be one of ${Object.keys(template.entity_types).join(', ')}` }];
  return checkFields(entityType, spec, data);
}

/** Template rules for an event: a top-level type of the template and its required fields. */
export function validateEvent(template: TemplateSchema, eventType: string, data: Record<string, unknown>): FieldProblem[] {
  if (eventType.includes('.')) return [{ field: 'eventType', message: 'must be a top-level event type; put subtypes in data (for example data.type)' }];
  const spec = template.event_types[eventType];
  if (!spec) return [{ field: 'eventType', message: `must be one of ${Object.keys(template.event_types).join(', ')}` }];
  return checkFields(eventType, spec, data);
}

export function validateStateKey(template: TemplateSchema, key: string): FieldProblem[] {
  return template.state_keys.includes(key) ? [] : [{ field: 'stateKey', message: `must be one of ${template.state_keys.join(', ')}` }];
}

export function describeProblems(problems: FieldProblem[]): string {
  return problems.map((problem) => `${problem.field} ${problem.message}`).join('; ');
}
