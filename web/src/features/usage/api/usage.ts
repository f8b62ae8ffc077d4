import { api, call } from '../../../api/client';
import { useLoad } from '../../../api/useLoad';

/** The organisation's automation usage this period. */
export const useUsage = () => useLoad(() => call(api.GET('/workflows-api/usage')), []);
