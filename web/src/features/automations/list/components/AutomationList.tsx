import { Link } from 'react-router';
import { useCanManage } from '../../../../auth/session';
import { LoadStatus, PageHeader, StatusBadge } from '../../../../components/Status';
import { formatDateTime, plural } from '../../../../format';
import { RECIPES } from '../../editor/components/recipes';
import { useAutomations } from '../../api/automations';

/** Automations (`/workflows-api/workflows`): the list, and recipes to start from. */
export default function AutomationList() {
  const manage = useCanManage();
  const workflows = useAutomations({ limit: 100 });
  const list = workflows.data?.data ?? [];
  const recipes = (
    <ul className="grid-2 recipe-list">
      {RECIPES.map((recipe) => (
        <li key={recipe.id} className="panel">
          <h3>{recipe.title}</h3>
          <p>{recipe.description}</p>
          <Link className="button" to={`/workflows/new?recipe=${recipe.id}`}>
            Use “{recipe.title}”
          </Link>
        </li>
      ))}
    </ul>
  );

  return (
    <>
      <PageHeader
        title="Workflows"
        lead="Automations: a trigger (an event, a webhook, a schedule or a manual run), optional conditions, then actions. Each run is durable: it survives restarts and retries what failed."
      >
        {manage && list.length > 0 && (
          <Link className="button button-primary" to="/workflows/new?recipe=blank">
            New workflow
          </Link>
        )}
      </PageHeader>
      <LoadStatus load={workflows} />
      {workflows.data && list.length === 0 && (
        <section className="empty" aria-labelledby="no-workflows">
          <h2 id="no-workflows">No workflows yet</h2>
          {manage ? (
            <p>Pick a starting point: you can change every step in the editor.</p>
          ) : (
            <p>An Owner or Admin can create one; you can follow their runs here.</p>
          )}
          {manage && recipes}
        </section>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>{plural(workflows.data?.count ?? list.length, 'workflow')}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">MCP tool</th>
                <th scope="col" className="num">
                  Version
                </th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.map((workflow) => (
                <tr key={workflow.id}>
                  <td>
                    <Link to={`/workflows/${workflow.id}`}>{workflow.name}</Link>
                    {workflow.description && (
                      <span className="hint">
                        <br />
                        {workflow.description}
                      </span>
                    )}
                  </td>
                  <td>
                    <StatusBadge status={workflow.active ? 'active' : 'inactive'} />
                  </td>
                  <td>{workflow.mcp_exposed ? <code>{workflow.mcp_tool_name}</code> : <span className="hint">not exposed</span>}</td>
                  <td className="num">{workflow.version}</td>
                  <td>{formatDateTime(workflow.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {manage && list.length > 0 && (
        <details>
          <summary>Start from a recipe</summary>
          {recipes}
        </details>
      )}
    </>
  );
}
