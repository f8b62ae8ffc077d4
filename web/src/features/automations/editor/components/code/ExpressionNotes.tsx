import { Fragment, useEffect, useMemo, useState } from 'react';
import { expressionWarnings, moneyPaths } from './expressionCheck';
import { MONEY_UNIT } from './fieldTypes';
import type { Field } from './scope';

/** How long typing must pause before the notes are worked out again (as the preview's evaluation). */
const SETTLE_MS = 400;

/**
 * What the preview's value alone does not say, under it: fields the trigger's schema does not know (a misspelt
 * `trigger.data.ammount` evaluates to nothing, so a condition is quietly false), comparisons of a typed field with a
 * literal of another type, and the unit of each money field the expression reads. Worked out in the browser from the
 * names completions offer (./expressionCheck.ts), once typing pauses.
 */
export function ExpressionNotes({ fields, expression, kind, id }: { fields: Field[]; expression: string; kind: 'condition' | 'template'; id: string }) {
  const [settled, setSettled] = useState(expression);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(expression), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [expression]);
  const warnings = useMemo(() => expressionWarnings(fields, settled, kind), [fields, settled, kind]);
  const money = useMemo(() => moneyPaths(fields, settled, kind), [fields, settled, kind]);
  return (
    <div id={id} className="code-notes" aria-live="polite">
      {warnings.length > 0 && (
        <ul className="code-warnings">
          {warnings.map((warning) => (
            <li key={warning.message} data-warning={warning.kind}>
              <span className="code-warning-label">Warning:</span> {warning.message}
            </li>
          ))}
        </ul>
      )}
      {money.length > 0 && (
        <p className="hint code-money">
          {money.map((path, index) => (
            <Fragment key={path}>
              {index > 0 && ', '}
              <code>{path}</code>
            </Fragment>
          ))}{' '}
          {money.length === 1 ? 'is an amount' : 'are amounts'} in {MONEY_UNIT}.
        </p>
      )}
    </div>
  );
}
