import type { components } from '../../../api/schema';
import { formatDateTime } from '../../../format';
import { AuditTarget } from './AuditTarget';

export type AuditEvent = components['schemas']['AuditEvent'];

const short = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : '—');

/**
 * A page of audit events: when, who (the member's name or the key's label where known), what and on which record (named and linked),
 * the changed fields, and the record's hashes before and after. On a phone each row becomes a card (audit.css).
 */
export function AuditTable({ events, count, actorName }: { events: AuditEvent[]; count: number; actorName: (event: AuditEvent) => string }) {
  return (
    <div className="table-wrap audit-table">
      <table>
        <caption>
          {count} event{count === 1 ? '' : 's'}, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">What changed</th>
            <th scope="col">Before → after</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id} data-event-id={event.id}>
              <td data-label="When">{formatDateTime(event.occurredAt)}</td>
              <td data-label="Who">
                {actorName(event)} <span className="hint">{event.actor.kind === 'member' ? 'member' : 'API key'}</span>
              </td>
              <td data-label="Action">
                <code>{event.action}</code>
              </td>
              <td data-label="Target">
                <AuditTarget event={event} />
              </td>
              <td data-label="What changed">{event.summary}</td>
              <td data-label="Before → after">
                <code title={`before ${event.beforeHash ?? 'none'}, after ${event.afterHash ?? 'none'}`}>
                  {short(event.beforeHash)} → {short(event.afterHash)}
                </code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
