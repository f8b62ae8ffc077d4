import { api, call } from '../../../../api/client';
import { useLoad } from '../../../../api/useLoad';
import { getVersion } from '../../api/automations';

/** One page of the automation's saved versions; loads again when a save makes a new one. */
export const useVersions = (id: string, currentVersion: number, limit: number, offset: number) =>
  useLoad(
    () => call(api.GET('/workflows-api/workflows/{id}/versions', { params: { path: { id }, query: { limit, offset } } })),
    [id, currentVersion, limit, offset],
  );

/** The change between two versions with both definitions, for the side-by-side view. */
export const useVersionsDiff = (id: string, from: number, to: number) =>
  useLoad(async () => {
    const [diff, left, right] = await Promise.all([
      call(api.GET('/workflows-api/workflows/{id}/diff', { params: { path: { id }, query: { from, to } } })),
      getVersion(id, from),
      getVersion(id, to),
    ]);
    return { diff: diff.data, left: left.data.definition, right: right.data.definition };
  }, [id, from, to]);

/** Makes an earlier version the current one again (as a new version). */
export const restoreVersion = (id: string, version: number) =>
  call(api.POST('/workflows-api/workflows/{id}/versions/{version}/rollback', { params: { path: { id, version } } }));
