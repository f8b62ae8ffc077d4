import { need } from './checks';
import { cron, timezone } from './triggerChecks';
import type { NodeModule } from './module';

/** `trigger.schedule`: one Temporal Schedule per node. */
export const triggerSchedule: NodeModule = {
  label: 'Schedule',
  group: 'trigger',
  description: 'Runs on a schedule (cron), in your time zone.',
  defaults: { cron: '0 9 * * *', timezone: 'Europe/London' },
  params: { cron: need(cron), timezone: need(timezone) },
  branches: 'none',
};
