import { saveDownload } from '../../../../api/download';
import { useAction } from '../../../../api/useLoad';
import { ErrorNotice } from '../../../../components/Status';
import { downloadStepValue } from '../api/runs';

/** What a run record holds instead of a step value over 64 KiB (docs/workflows.md "Large step values"). */
export interface Truncated {
  _truncated: true;
  bytes: number;
  preview: string;
}

export const isTruncated = (value: unknown): value is Truncated =>
  typeof value === 'object' && value !== null && (value as { _truncated?: unknown })._truncated === true;

const sizeOf = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

/**
 * A step value too large for the run record: its size, the start of its JSON, and a download of the whole value from
 * the API's streaming endpoint, `GET /workflows-api/runs/:runId/steps/:nodeId/input|output` (fetched with the session's token, which a plain link cannot carry).
 */
export function TruncatedValue({ value, step }: { value: Truncated; step: { runId: string; nodeId: string; part: 'input' | 'output' } }) {
  const { runId, nodeId, part } = step;
  const label = part;
  const download = useAction(async () => {
    const { response, blob } = await downloadStepValue(runId, nodeId, part);
    saveDownload(response, blob, `${nodeId}-${part}.json`);
  });
  return (
    <div className="run-step-truncated">
      <p className="hint">
        The {label} is {sizeOf(value.bytes)}: the run record keeps its first {value.preview.length.toLocaleString()} characters.{' '}
        {value.preview.length > 0 && (
          <button type="button" className="button button-small" disabled={download.pending} onClick={() => void download.run()}>
            Download full {label}
          </button>
        )}
      </p>
      {value.preview.length > 0 && <pre tabIndex={0}>{value.preview}…</pre>}
      <ErrorNotice error={download.error} title={`The ${label} did not download.`} />
    </div>
  );
}
