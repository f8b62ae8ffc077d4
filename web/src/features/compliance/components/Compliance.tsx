import { Link } from 'react-router';
import { useCanManage } from '../../../auth/session';
import { PageHeader } from '../../../components/Status';
import { EvidenceViewer } from './EvidenceViewer';
import { GateSettings } from './GateSettings';
import { MarketingEvidence } from './MarketingEvidence';
import './compliance.css';

/**
 * Responsible gambling (docs/compliance.md "Responsible-gambling gate"): the gate's settings for everyone to read and
 * the Owner and Admins to change, and for them the evidence — viewed with filters and exported — which the API
 * shows only to them. A player's own exclusion, limits and consent are set on the player's page.
 */
export default function Compliance() {
  const manage = useCanManage();
  return (
    <>
      <PageHeader
        title="Responsible gambling"
        lead={
          <>
            What the gate checks before every marketing step. A player&apos;s self-exclusion, cooling-off, limits and consent are set on their page in{' '}
            <Link to="/players">Players</Link>.
          </>
        }
      />
      <GateSettings manage={manage} />
      {manage ? (
        <div className="evidence-area">
          <EvidenceViewer />
          <MarketingEvidence />
        </div>
      ) : (
        <p className="hint">The Owner and Admins see the gate&apos;s evidence here: which marketing steps went out and which the gate suppressed.</p>
      )}
    </>
  );
}
