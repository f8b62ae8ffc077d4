/**
 * The fields of each step's output, as expressions read them (`nodes.<id>.<field>`): the properties of the action
 * output schemas the API publishes (core/automations/runOutput.ts `ACTION_OUTPUT_SCHEMAS`, from each node module's
 * `output`), and a condition's `result`; test/unit/outputFields.test.ts keeps the copy equal to them.
 */
export const OUTPUT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  condition: ['result'],
  'action.http_request': ['status', 'headers', 'body'],
  'action.gateway': ['status', 'data'],
  'action.set_state': ['externalId', 'key', 'value'],
  'action.record_event': ['id', 'externalId', 'eventType'],
  'action.upsert_entity': ['id', 'externalId', 'action'],
  'action.delay': ['waitedSeconds'],
  'action.send_email': ['delivery', 'messageId', 'file'],
  'action.ai': ['text', 'model', 'usage'],
  'action.approval': ['approved', 'answeredBy', 'comment', 'timedOut'],
  'action.wait_for_event': ['happened', 'event'],
};
