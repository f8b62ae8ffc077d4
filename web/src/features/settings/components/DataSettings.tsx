import { useEffect, useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { SelectField, TextField } from '../../../components/Field';
import { ErrorNotice, Loading, Success } from '../../../components/Status';
import { saveDataSettings, useDataSettingsForm } from '../api/settings';

/**
 * `GET`/`PUT /operator-data-api/settings` (with the session's dashboard credential): the data template (what
 * players, events and states look like), the reporting currency of analytics, the churn window of its cohorts, and how
 * long data is kept. The
 * Owner and Admins change them; a Member sees them.
 */
export function DataSettings({ manage }: { manage: boolean }) {
  const loaded = useDataSettingsForm();
  const [templateId, setTemplateId] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [retention, setRetention] = useState('');
  const [churnDays, setChurnDays] = useState('30');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const settings = loaded.data?.settings;
    if (!settings) return;
    setTemplateId(settings.template?.id ?? '');
    setCurrency(settings.reportingCurrency);
    setRetention(settings.dataRetentionDays === null ? '' : String(settings.dataRetentionDays));
    setChurnDays(String(settings.churnDays));
  }, [loaded.data]);
  const save = useAction(async () => {
    setSaved(false);
    await saveDataSettings({
      ...(templateId ? { templateId } : {}),
      reportingCurrency: currency.trim().toUpperCase(),
      dataRetentionDays: retention.trim() === '' ? null : Number(retention),
      churnDays: Number(churnDays),
    });
    setSaved(true);
    loaded.reload();
  });

  if (loaded.loading && !loaded.data) return <Loading />;
  if (loaded.error) return <ErrorNotice error={loaded.error} onRetry={loaded.reload} />;
  const templates = loaded.data?.templates ?? [];
  const current = templates.find((template) => template.id === templateId);
  return (
    <form
      className="panel"
      aria-label="Data settings"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h2>Data</h2>
      {!loaded.data?.settings.template && (
        <p className="notice notice-warn">No template is selected yet: the data API refuses players and events until one is (TEMPLATE_NOT_CONFIGURED).</p>
      )}
      <SelectField
        label="Data template"
        value={templateId}
        onChange={(event) => setTemplateId(event.target.value)}
        disabled={!manage}
        problems={save.error?.problemsAt('templateId')}
      >
        <option value="">Select a template</option>
        {templates.map((template) => (
          <option key={template.id} value={template.id}>
            {template.name} (version {template.version})
          </option>
        ))}
      </SelectField>
      {current && (
        <p className="hint">
          Players: {Object.keys(current.schema.entity_types).join(', ')} · events: {Object.keys(current.schema.event_types).join(', ')} · states:{' '}
          {current.schema.state_keys.join(', ')}
        </p>
      )}
      <TextField
        label="Reporting currency"
        value={currency}
        onChange={(event) => setCurrency(event.target.value)}
        disabled={!manage}
        maxLength={3}
        hint="ISO 4217, e.g. EUR: analytics add up amounts in this currency"
        problems={save.error?.problemsAt('reportingCurrency')}
      />
      <TextField
        label="Churned after (days without play or deposit)"
        type="number"
        min={1}
        max={365}
        value={churnDays}
        onChange={(event) => setChurnDays(event.target.value)}
        disabled={!manage}
        hint="The Overview's cohorts count a player as churned after this many days without a round or a completed deposit"
        problems={save.error?.problemsAt('churnDays')}
      />
      <TextField
        label="Keep data for (days)"
        type="number"
        min={1}
        value={retention}
        onChange={(event) => setRetention(event.target.value)}
        disabled={!manage}
        hint="Empty: keep everything"
        problems={save.error?.problemsAt('dataRetentionDays')}
      />
      <ErrorNotice error={save.error} title="The settings were not saved." />
      {saved && <Success>Settings saved.</Success>}
      {manage ? (
        <button type="submit" className="button button-primary" disabled={save.pending || templateId === ''}>
          {save.pending ? 'Saving…' : 'Save settings'}
        </button>
      ) : (
        <p className="hint">Only the Owner or an Admin can change the data settings.</p>
      )}
    </form>
  );
}
