import { PageHeader } from '../../components/Status';

export default function Page() {
  return <PageHeader title="EditorPage" />;
}
