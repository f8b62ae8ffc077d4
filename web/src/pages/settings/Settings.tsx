import { PageHeader } from '../../components/Status';
import { useCanManage, useMember } from '../../auth/session';
import { DataSettings } from './DataSettings';
import { MarketingEvidence } from './MarketingEvidence';

/** The organisation and its data settings (template, reporting currency, retention): a Member reads them; the Owner and Admins also export the marketing evidence. */
export default function Settings() {
  const member = useMember();
  const manage = useCanManage();
  return (
    <>
      <PageHeader title="Settings" lead={`Organisation “${member.operatorName}”.`} />
      <DataSettings manage={manage} />
      {manage && <MarketingEvidence />}
    </>
  );
}
