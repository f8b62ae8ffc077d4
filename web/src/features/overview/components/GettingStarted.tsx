import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useLoad } from '../../../api/useLoad';
import { countAutomations } from '../../automations/api/automations';
import { listApiKeys } from '../../keys/api/keys';
import { getDataSettings } from '../../settings/api/settings';

/**
 * The next steps for a new organisation, each ticked off from what the API reports: a key, a data
 * template (the data API's settings), players, an automation.
 */
export function GettingStarted({ totalPlayers }: { totalPlayers: number }) {
  const state = useLoad(async () => {
    const [keys, workflows, settings] = await Promise.all([listApiKeys(), countAutomations(), getDataSettings().catch(() => null)]);
    return { keys: keys.data.filter((record) => !record.revoked).length, workflows: workflows.count, template: settings?.data.template?.name ?? null };
  }, []);
  const data = state.data;
  if (!data) return null;
  const steps: Array<{ done: boolean; text: ReactNode }> = [
    {
      done: data.template !== null,
      text: (
        <>
          <Link to="/settings">Select a data template</Link>
          {data.template ? ` (${data.template})` : ' — it says which players, events and states you send'}
        </>
      ),
    },
    {
      done: data.keys > 0,
      text: (
        <>
          <Link to="/keys">Create an API key</Link> for your systems to send data
        </>
      ),
    },
    {
      done: totalPlayers > 0,
      text: (
        <>
          Send players and events (<a href="/docs">API reference</a>) or <Link to="/jobs">upload a batch</Link>
        </>
      ),
    },
    {
      done: data.workflows > 0,
      text: (
        <>
          <Link to="/workflows">Build an automation</Link>: a trigger, a condition, actions
        </>
      ),
    },
  ];
  if (steps.every((step) => step.done)) return null;
  return (
    <section className="panel" aria-labelledby="start-title">
      <h2 id="start-title">Get started</h2>
      <ol className="checklist">
        {steps.map((step, index) => (
          <li key={index}>
            <span className={step.done ? 'check check-done' : 'check'} aria-hidden="true">
              {step.done ? '✓' : index + 1}
            </span>
            <span>
              {step.text}
              <span className="visually-hidden">{step.done ? ' (done)' : ' (to do)'}</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
