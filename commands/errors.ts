/**
 * A use case's refusal: what went wrong as a stable code, the HTTP status an API answers it with, and a message a
 * person can act on. The API turns it into its area's error body (api/middleware/errorHandler.ts); the CLI prints
 * the message; a job records the code. Anything else a command throws is a fault, never a refusal.
 *
 * @example throw new CommandError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found')
 */
export class CommandError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}
