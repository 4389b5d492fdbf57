import { accountTexts } from '@furniture/contract';
import { EmailLinkPage } from '../components/email-link-page.tsx';

/** The page of the link e-mailed to a new address: makes it the account's e-mail as it opens, signed in or not. */
export function ChangeEmailRoute() {
  return <EmailLinkPage endpoint="/auth/change-email" texts={accountTexts.changeEmail} />;
}
