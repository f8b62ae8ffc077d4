import { Link } from 'react-router';
import { PageHeader } from '../../../components/Status';
import { useCanManage, useMember } from '../../../auth/session';
import { DataSettings } from './DataSettings';

/** The organisation and its data settings (template, reporting currency, retention): a Member reads them, the Owner and Admins change them. */
export default function Settings() {
  const member = useMember();
  const manage = useCanManage();
  return (
    <>
      <PageHeader title="Settings" lead={`Organisation “${member.operatorName}”.`} />
      <DataSettings manage={manage} />
      <p className="hint">
        The responsible-gambling gate&apos;s settings and its marketing evidence are in <Link to="/compliance">Responsible gambling</Link>.
      </p>
    </>
  );
}
