import { need } from '../checks';
import { cron, timezone } from '../triggerChecks';
import type { NodeModule } from '../module';
import { flow } from './flow';

/** `trigger.schedule`: one Temporal Schedule per node. */
export const triggerSchedule: NodeModule = {
  ...flow,
  label: 'Schedule',
  description: 'Runs on a schedule (cron), in your time zone.',
  defaults: { cron: '0 9 * * *', timezone: 'Europe/London' },
  fields: [
    {
      kind: 'text',
      name: 'cron',
      label: 'Cron (5 fields)',
      required: true,
      placeholder: '0 9 * * 1',
      hint: 'minute hour day-of-month month day-of-week; 0 9 * * 1 is Mondays at 09:00',
    },
    { kind: 'timezone', name: 'timezone', label: 'Time zone' },
  ],
  branchLabels: null,
  params: { cron: need(cron), timezone: need(timezone) },
};
