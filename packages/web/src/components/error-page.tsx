import { labels, texts, uiTexts } from '@furniture/contract';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '../config/paths.ts';
import { notFoundTitle, usePageHead } from '../lib/page-head.ts';
import errorIllustration from '../assets/error-illustration.svg';

function describe(error: unknown): { status: number | null; text: string } {
  // The router's own answers ("No route matches URL …") speak to developers: their status is enough.
  if (isRouteErrorResponse(error)) return { status: error.status, text: '' };
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    return { status: typeof status === 'number' ? status : null, text: error.message };
  }
  return { status: null, text: '' };
}

/** The specification's error texts and the way home. */
function ErrorMessage({ status, text }: { status: number | null; text: string }) {
  return (
    <div className="flex flex-col items-center justify-center gap-4 px-4 py-10 text-center">
      <img src={errorIllustration} alt={uiTexts.shell.errorIllustration} width={240} height={180} className="h-auto w-60" />
      <h1 className="text-5xl font-bold">{texts.errorTitle}</h1>
      <p className="text-lg">{texts.errorSorry}</p>
      {status === 404 && <p className="font-semibold">{texts.errorNotFound}</p>}
      {text && (
        <p className="text-base-content" data-testid="error-text">
          <i>{text}</i>
        </p>
      )}
      <Link to={paths.home.getHref()} className="btn btn-primary">
        {labels.errorPage.home}
      </Link>
    </div>
  );
}

/** The error screen when the shell itself failed: no navbar to keep. */
export function ErrorPage() {
  const error = useRouteError();
  const { status, text } = describe(error);
  usePageHead(status === 404 ? notFoundTitle : texts.errorTitle);
  if (status !== 404) console.error(error);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center">
      <ErrorMessage status={status} text={text} />
    </main>
  );
}

/** A page's error inside the shell: the navbar, with its search box, stays above it. */
export function RouteErrorPage() {
  const error = useRouteError();
  const { status, text } = describe(error);
  usePageHead(status === 404 ? notFoundTitle : texts.errorTitle);
  if (status !== 404) console.error(error);
  return <ErrorMessage status={status} text={text} />;
}

/** An address the app does not have (404), inside the shell. */
export function NotFoundRoute() {
  usePageHead(notFoundTitle);
  return <ErrorMessage status={404} text="" />;
}
