import { texts, uiTexts } from '@furniture/contract';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** A dashboard path the app does not have: the 404 message inside the dashboard. */
export function DashboardNotFoundRoute() {
  return (
    <section className="flex flex-col items-start gap-4" aria-labelledby="dashboard-not-found-title">
      <h1 id="dashboard-not-found-title" className="text-3xl font-bold">
        {texts.errorTitle}
      </h1>
      <p className="text-lg">{texts.errorNotFound}</p>
      <Link to={paths.dashboard.root.getHref()} className="btn btn-primary">
        {uiTexts.dashboard.backToDashboard}
      </Link>
    </section>
  );
}
