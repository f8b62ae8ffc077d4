/** What a run waiting in an `action.approval` asks for, as stored (sealed) on its row while it waits. */
export interface AwaitingInput {
  nodeId: string;
  message: string;
  /** When the approval times out (ISO): the node then completes with `approved: false, timedOut: true`. */
  until: string;
}

/** An answer to an approval: by an Owner or Admin in the dashboard (`member:<id>`) or an agent (`key:<id>`). */
export interface ApprovalAnswer {
  nodeId: string;
  approved: boolean;
  answeredBy: string;
  comment?: string;
}

export interface ApprovalOutput {
  approved: boolean;
  answeredBy: string | null;
  comment: string | null;
  timedOut: boolean;
}

/** The longest question an approval asks: its template is bounded, what it renders from the run's data is cut here. */
export const MAX_APPROVAL_MESSAGE_CHARS = 2_000;

/** How long an approval waits when its node names no `timeoutSeconds`. */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 24 * 60 * 60;

/** The form an agent answers (MCP `elicitation/create`, form mode): approve or not, and why. */
export const APPROVAL_FORM_SCHEMA = {
  type: 'object',
  properties: {
    approved: { type: 'boolean', title: 'Approve', description: 'true to go on, false to refuse' },
    comment: { type: 'string', title: 'Comment', maxLength: 1000 },
  },
  required: ['approved'],
} as const;
