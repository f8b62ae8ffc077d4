import { Link } from 'react-router';
import type { components } from '../../../api/schema';
import { TARGET_LABEL } from './filters';

type AuditEvent = components['schemas']['AuditEvent'];

/** Where each kind of target is seen in the dashboard; a target without a page of its own links to its list. */
function hrefOf(event: AuditEvent): string | null {
  const id = encodeURIComponent(event.targetId);
  switch (event.targetType) {
    case 'automation':
      return event.targetDeleted ? null : `/workflows/${id}`;
    case 'run':
      return `/runs/${id}`;
    case 'player':
      return `/players/${id}`;
    case 'member':
    case 'invite':
      return '/team';
    case 'api_key':
      return '/keys';
    case 'connection':
    case 'connector':
      return '/connections';
    case 'evidence':
      return '/compliance';
    case 'settings':
      return '/settings';
    case 'mcp_grant':
      return null;
  }
}

/** A run is named by its workflow; a deleted workflow keeps its name and says so. */
function nameOf(event: AuditEvent): string | null {
  if (event.targetName === null) return null;
  const name = event.targetType === 'run' ? `Run of ${event.targetName}` : event.targetName;
  return event.targetDeleted ? `${name} (deleted)` : name;
}

/**
 * An audit event's target as a designer reads it: its kind, its name (a workflow's, a member's, a key's label, a run's
 * workflow) linked to where it lives, and its id beneath for searching and filtering.
 */
export function AuditTarget({ event }: { event: AuditEvent }) {
  const href = hrefOf(event);
  const name = nameOf(event);
  const id = <code className="audit-id">{event.targetId}</code>;
  const shown = name ? <span className="audit-target-name">{name}</span> : id;
  return (
    <>
      {TARGET_LABEL[event.targetType]} {href ? <Link to={href}>{shown}</Link> : shown}
      {name && <span className="audit-target-id">{id}</span>}
    </>
  );
}
