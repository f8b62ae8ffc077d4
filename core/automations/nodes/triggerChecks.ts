import { cronProblem, inputSchemaProblems, timezoneProblem } from '../triggerSchema';
import type { Check } from './checks';

/**
 * The checks of trigger settings, apart from ./checks.ts so that what imports the common checks (workflow code among
 * it) does not bring cron parsing with it.
 */
export const inputSchema: Check = (value, field, problems) => void problems.push(...inputSchemaProblems(value, field));

export const cron: Check = (value, field, problems) => {
  const problem = cronProblem(value);
  if (problem) problems.push({ field, message: problem });
};

export const timezone: Check = (value, field, problems) => {
  const problem = timezoneProblem(value);
  if (problem) problems.push({ field, message: problem });
};
