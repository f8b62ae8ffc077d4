import type { EventWrite } from '../../core/ingestItems';
import { jsonLength } from '../../core/knownJson';
import type { Db } from '../knex';
import { insertEvent, insertEvents } from './events';
import type { ItemOutcome } from './results';

interface Waiting {
  write: EventWrite;
  /** The event's data as JSON text, in UTF-16 code units: what it adds to a statement's parameters. */
  size: number;
  resolve(outcome: ItemOutcome): void;
  reject(error: unknown): void;
}

interface Lane {
  waiting: Waiting[];
  writing: number;
  /** A statement will start once this turn of the event loop has run, with every event appended during it. */
  starting: boolean;
}

/** PostgreSQL classes whose error depends on the row written (22: data exception, 23: integrity): one item's fault, not the batch's. */
const ITEM_FAULT = /^2[23]/;

const itemFault = (error: unknown) => ITEM_FAULT.test(String((error as { code?: unknown } | null)?.code ?? ''));

/**
 * The single-event API's writes, grouped by operator: the events of one turn of the event loop go together (a
 * statement starts once the turn has run, `setImmediate`, so the requests read from the same batch of sockets
 * share it), and while an operator's statements are in flight, its next events wait and go together in the next one
 * (`insertEvents`, one statement and one commit for all of them). A lone event waits for no timer, only for the
 * rest of its turn; under load PostgreSQL parses, plans and commits once per group instead of once per event, and
 * this process sends and reads one statement per group. Each caller still answers only after its own row has
 * committed.
 *
 * An operator holds at most `lanes` statements at once, so one tenant's flood of single events takes that many of the
 * pool's connections and no more; a statement carries at most `maxGroup` events and `maxGroupSize` of their data, so
 * large events (each up to the body limit) are not joined into one huge parameter. A group refused for one row's data
 * (a PostgreSQL data or integrity error, the statement rolled back) is written again one event at a time, so only
 * that event's caller sees the error; any other failure, such as a lost connection whose commit is unknown, fails the
 * group's callers as it would have failed each of them, and is never retried here, which could write an event twice.
 */
export class EventAppender {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly db: Db,
    private readonly options: { lanes: number; maxGroup: number; maxGroupSize: number } = { lanes: 2, maxGroup: 500, maxGroupSize: 4 * 1024 * 1024 },
  ) {}

  /** Writes one event of a live entity and its outbox row; `ok: false` for an unknown or erased entity, as `insertEvent`. */
  append(operatorId: string, write: EventWrite): Promise<ItemOutcome> {
    const lane = this.lanes.get(operatorId) ?? { waiting: [], writing: 0, starting: false };
    this.lanes.set(operatorId, lane);
    const size = jsonLength(write.data);
    const outcome = new Promise<ItemOutcome>((resolve, reject) => lane.waiting.push({ write, size, resolve, reject }));
    if (lane.writing < this.options.lanes && !lane.starting) {
      lane.starting = true;
      setImmediate(() => {
        lane.starting = false;
        if (lane.waiting.length > 0 && lane.writing < this.options.lanes) void this.drain(operatorId, lane);
      });
    }
    return outcome;
  }

  private async drain(operatorId: string, lane: Lane): Promise<void> {
    lane.writing += 1;
    try {
      while (lane.waiting.length > 0) await this.write(operatorId, this.nextGroup(lane));
    } finally {
      lane.writing -= 1;
      if (lane.writing === 0 && lane.waiting.length === 0) this.lanes.delete(operatorId);
    }
  }

  /** The next events in order, at most `maxGroup` of them and `maxGroupSize` of data (an event larger than that goes alone). */
  private nextGroup(lane: Lane): Waiting[] {
    let count = 0;
    let size = 0;
    for (const waiting of lane.waiting) {
      if (count === this.options.maxGroup || (count > 0 && size + waiting.size > this.options.maxGroupSize)) break;
      count += 1;
      size += waiting.size;
    }
    return lane.waiting.splice(0, count);
  }

  private async write(operatorId: string, group: Waiting[]): Promise<void> {
    try {
      const outcomes = await insertEvents(
        this.db,
        operatorId,
        group.map(({ write }, index) => ({ index, write })),
      );
      group.forEach((waiting, index) => waiting.resolve(outcomes[index]!));
    } catch (error) {
      if (group.length === 1 || !itemFault(error)) {
        for (const waiting of group) waiting.reject(error);
        return;
      }
      for (const { write, resolve, reject } of group) await insertEvent(this.db, operatorId, write).then(resolve, reject);
    }
  }
}
