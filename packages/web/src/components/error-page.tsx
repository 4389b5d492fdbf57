import { labels, texts, uiTexts } from '@furniture/contract';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '../config/paths.ts';
import { notFoundTitle, usePageHead } from '../lib/page-head.ts';
import errorIllustration from '../assets/error-illustration.svg';

function describe(error: unknown): { status: number | null; text: string } {
  if (isRouteErrorResponse(error)) {
    const data = error.data as { message?: unknown } | string | undefined;
    const detail = typeof data === 'string' ? data : typeof data?.message === 'string' ? data.message : '';
    return { status: error.status, text: detail || error.statusText };
  }
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    return { status: typeof status === 'number' ? status : null, text: error.message };
  }
  return { status: null, text: String(error ?? '') };
}

/** The error screen of both route trees: unknown routes, failed loaders and rendering errors. */
export function ErrorPage() {
  const error = useRouteError();
  const { status, text } = describe(error);
  usePageHead(status === 404 ? notFoundTitle : texts.errorTitle);
  if (status !== 404) console.error(error);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 py-10 text-center">
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
    </main>
  );
}
