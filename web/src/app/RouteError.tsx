import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** A page that failed to load (a chunk after a redeploy) or threw: say so and offer a way on. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Unknown error';
  return (
    <main className="centered" id="main">
      <div className="panel">
        <h1>This page could not be shown</h1>
        <p>{message}</p>
        <p>
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Reload
          </button>{' '}
          <Link to="/">Go to the overview</Link>
        </p>
      </div>
    </main>
  );
}
