import { formatValue } from '../../../components/KeyValueEditor';

const SEALED = /^enc:v\d+:/;

/** An entity's fields in a line each; sealed personal fields are shown as such, never as ciphertext. */
export function DataSummary({ data, limit = 6 }: { data: Record<string, unknown>; limit?: number }) {
  const entries = Object.entries(data);
  if (entries.length === 0) return <span className="hint">no fields</span>;
  if (data._deleted === true) return <span className="badge badge-deleted">erased</span>;
  return (
    <span>
      {entries.slice(0, limit).map(([key, value], index) => (
        <span key={key}>
          {index > 0 && ' · '}
          {key}:{' '}
          {typeof value === 'string' && SEALED.test(value) ? (
            <span className="encrypted" title="Encrypted at rest; shown on the player's page">
              encrypted
            </span>
          ) : (
            formatValue(value)
          )}
        </span>
      ))}
      {entries.length > limit && ` · +${entries.length - limit} more`}
    </span>
  );
}
