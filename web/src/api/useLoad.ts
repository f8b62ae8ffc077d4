import { useCallback, useEffect, useRef, useState } from 'react';
import { asFailure, type ApiFailure } from './errors';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiFailure | undefined;
  loading: boolean;
  /** Loads again (after a change); the previous data stays on screen meanwhile. */
  reload: () => void;
}

/**
 * Loads data for a page and re-loads when `deps` change; a response that arrives after a newer request
 * started is dropped, so fast typing in a search box cannot show stale results.
 *
 * @example const members = useLoad(() => call(api.GET('/platform-api/operators/me/members')), [])
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: ApiFailure | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const id = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    loadRef.current().then(
      (data) => id === latest.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => id === latest.current && setState((previous) => ({ data: previous.data, error: asFailure(error), loading: false })),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

/** Runs an action (a button's POST), tracking its pending state and failure for the form that started it. */
export function useAction<A extends unknown[], R>(
  action: (...args: A) => Promise<R>,
): {
  run: (...args: A) => Promise<R | undefined>;
  pending: boolean;
  error: ApiFailure | undefined;
  clear: () => void;
} {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiFailure | undefined>();
  const actionRef = useRef(action);
  actionRef.current = action;
  const run = useCallback(async (...args: A) => {
    setPending(true);
    setError(undefined);
    try {
      return await actionRef.current(...args);
    } catch (caught) {
      setError(asFailure(caught));
      return undefined;
    } finally {
      setPending(false);
    }
  }, []);
  return { run, pending, error, clear: useCallback(() => setError(undefined), []) };
}
