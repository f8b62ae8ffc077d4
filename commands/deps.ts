import type { Logger } from 'pino';
import type { Config } from '../core/config';
import type { Keyring } from '../core/crypto';
import type { AutomationNode } from '../core/automations/types';
import type { EventAppender } from '../db/ingest/eventAppender';
import type { Db } from '../db/knex';
import type { SettingsPort } from '../db/settingsPort';

/**
 * Keeps an automation's Temporal Schedules in step with its definition: `next` null removes them all. Implemented by
 * temporal/automationSchedules.ts and handed in by the caller, since commands sit below temporal/ in the layers.
 */
export type ScheduleSync = (change: { operatorId: string; automationId: string; previous: AutomationNode[]; next: AutomationNode[] | null }) => Promise<void>;

/**
 * What the use cases in commands/ may use, built by each caller (the API's deps satisfy it, the CLI builds its own).
 * A command takes the part it needs (`Pick<CommandDeps, 'db' | 'keyring'>`), so a script needs no more than that.
 */
export interface CommandDeps {
  config: Config;
  db: Db;
  keyring: Keyring;
  /** The process's single events, grouped per operator into shared statements (db/ingest/eventAppender.ts). */
  events: EventAppender;
  logger: Logger;
  syncSchedules: ScheduleSync;
  /** The operators' settings and templates: cached in the API, read stored by jobs and scripts (db/settingsPort.ts). */
  settings: SettingsPort;
}
