import './suppressed.css';

/** A gate rule as people read it: `self_excluded` → "self excluded". */
export const ruleText = (rule: string): string => rule.replace(/_/g, ' ');

/**
 * A marketing step the responsible-gambling gate suppressed (docs/compliance.md): amber "suppressed · <rule>", never the
 * green of a completed step, though its status is `completed` (the run went on by its edges).
 */
export function SuppressedBadge({ rule }: { rule: string }) {
  return (
    <span className="badge badge-suppressed" title={`Not performed: the responsible-gambling gate's ${ruleText(rule)} rule applied`}>
      suppressed · {ruleText(rule)}
    </span>
  );
}
