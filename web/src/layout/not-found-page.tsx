import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <main className="page">
      <h1>Page not found</h1>
      <p>
        <Link to="/datasets">Back to the datasets</Link>
      </p>
    </main>
  );
}
