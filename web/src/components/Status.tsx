import type { ReactNode } from 'react';
import type { ApiFailure } from '../api/errors';
import type { Loaded } from '../api/useLoad';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

/**
 * A failed request in words, with the API's code and, when it named fields, each problem. With `fieldsShown` the form
 * shows the problems at their fields, so the notice only points there (the message would repeat them); `hideCode` drops
 * the code badge where the reader is not a developer (sign-up, issue 44).
 */
export function ErrorNotice({
  error,
  title,
  onRetry,
  fieldsShown,
  hideCode,
}: {
  error: ApiFailure | undefined;
  title?: string;
  onRetry?: () => void;
  fieldsShown?: boolean;
  hideCode?: boolean;
}) {
  if (!error) return null;
  const wait = error.retryAfter ? ` Try again in ${error.retryAfter} s.` : '';
  const atFields = fieldsShown && error.details.length > 0;
  return (
    <div className="notice notice-error" role="alert">
      <p>
        <strong>{title ?? 'That did not work.'}</strong>{' '}
        {atFields ? `Correct the ${error.details.length === 1 ? 'field' : 'fields'} marked below.` : error.message}
        {wait}
        {!hideCode && (
          <>
            {' '}
            <code className="code-badge">{error.code}</code>
          </>
        )}
      </p>
      {error.details.length > 0 && !fieldsShown && (
        <ul>
          {error.details.map((problem, index) => (
            <li key={index}>
              <code>{problem.field}</code>: {problem.message}
            </li>
          ))}
        </ul>
      )}
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A load's failure (with a retry) or, until its first answer, the spinner: what every panel shows above its content. */
export function LoadStatus({ load }: { load: Pick<Loaded<unknown>, 'error' | 'loading' | 'data' | 'reload'> }) {
  return (
    <>
      <ErrorNotice error={load.error} onRetry={load.reload} />
      {load.loading && load.data === undefined && <Loading />}
    </>
  );
}

export function Success({ children }: { children: ReactNode }) {
  return (
    <div className="notice notice-success" role="status">
      {children}
    </div>
  );
}

/** What a newcomer sees where there is nothing yet: what this is for and the next step. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <section className="empty" aria-label={title}>
      <h2>{title}</h2>
      {children && <div className="empty-body">{children}</div>}
      {action && <div className="empty-action">{action}</div>}
    </section>
  );
}

export function PageHeader({ title, children, lead }: { title: string; children?: ReactNode; lead?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {lead && <p className="lead">{lead}</p>}
      </div>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.replace(/[^a-z_]/g, '')}`}>{status.replace(/_/g, ' ')}</span>;
}
