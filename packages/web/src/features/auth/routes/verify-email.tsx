import { accountTexts } from '@furniture/contract';
import { EmailLinkPage } from '../components/email-link-page.tsx';

/** The page of the e-mailed link: verifies the e-mail as it opens, signed in or not. */
export function VerifyEmailRoute() {
  return <EmailLinkPage endpoint="/auth/verify-email" texts={accountTexts.verify} />;
}
