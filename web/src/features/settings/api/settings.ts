import { api, call } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

/** The organisation's data settings: its template, reporting currency and retention. */
export const getDataSettings = () => call(api.GET('/operator-data-api/settings'));

export const getTemplates = () => call(api.GET('/operator-data-api/templates'));

/** The data settings with the templates one may pick, for the settings form. */
export const useDataSettingsForm = () =>
  useLoad(async () => {
    const [templates, settings] = await Promise.all([getTemplates(), getDataSettings()]);
    return { templates: templates.data, settings: settings.data };
  }, []);

export const useDataSettings = () => useLoad(async () => (await getDataSettings()).data, []);

export const saveDataSettings = (body: BodyOf<'/operator-data-api/settings', 'put'>) => call(api.PUT('/operator-data-api/settings', { body }));
