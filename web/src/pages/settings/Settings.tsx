import { DataKeyGate } from '../../components/DataKeyGate';
import { PageHeader } from '../../components/Status';
import { useMember } from '../../auth/session';
import { DataSettings } from './DataSettings';

/** The organisation and its data settings (template, reporting currency, retention). */
export default function Settings() {
  const member = useMember();
  return (
    <>
      <PageHeader title="Settings" lead={`Organisation “${member.operatorName}”.`} />
      <DataKeyGate purpose="Reading and changing the data settings">{(key) => <DataSettings apiKey={key} />}</DataKeyGate>
    </>
  );
}
