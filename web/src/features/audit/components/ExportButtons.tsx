import { saveDownload } from '../../../api/download';
import { useAction } from '../../../api/useLoad';
import { ErrorNotice } from '../../../components/Status';
import { filterQuery, type AuditFilters } from './filters';
import { exportAuditEvents } from '../api/audit';

/**
 * Downloads the events the filters match, as the API exports them. The export needs the session's bearer token, which
 * a plain link cannot carry, so the file is fetched and handed to the browser as a download.
 */
export function ExportButtons({ filters }: { filters: AuditFilters }) {
  const download = useAction(async (format: 'csv' | 'json') => {
    const { response, blob } = await exportAuditEvents({ ...filterQuery(filters), format });
    saveDownload(response, blob, `audit-events.${format}`);
  });
  return (
    <div className="audit-export">
      <button type="button" className="button" disabled={download.pending} onClick={() => void download.run('csv')}>
        Download CSV
      </button>
      <button type="button" className="button" disabled={download.pending} onClick={() => void download.run('json')}>
        Download JSON
      </button>
      <ErrorNotice error={download.error} title="The export did not download." />
    </div>
  );
}
