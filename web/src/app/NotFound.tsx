import { Link } from 'react-router';
import { PageHeader } from '../components/Status';

export default function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no page here. <Link to="/">Go to the overview</Link>.
      </p>
    </>
  );
}
