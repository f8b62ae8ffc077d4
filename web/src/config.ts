/** What the server tells the page at load time (api/dashboard/static.ts injects it into index.html). */
export interface AppConfig {
  temporalUiUrl: string | null;
  temporalNamespace: string;
}

function readConfig(): AppConfig {
  const fallback: AppConfig = { temporalUiUrl: null, temporalNamespace: 'default' };
  const element = document.getElementById('app-config');
  if (!element?.textContent) return fallback;
  try {
    return { ...fallback, ...(JSON.parse(element.textContent) as Partial<AppConfig>) };
  } catch {
    return fallback;
  }
}

export const appConfig = readConfig();

/** The Temporal Web UI page of one workflow execution, when a UI is configured. */
export function temporalRunUrl(temporalWorkflowId: string | undefined): string | null {
  if (!appConfig.temporalUiUrl || !temporalWorkflowId) return null;
  return `${appConfig.temporalUiUrl}/namespaces/${encodeURIComponent(appConfig.temporalNamespace)}/workflows/${encodeURIComponent(temporalWorkflowId)}`;
}
