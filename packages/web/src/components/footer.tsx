import { texts, uiTexts, type SocialNetwork } from '@furniture/contract';
import { useAppConfig } from '../lib/app-config.ts';

/** The icon of each network the footer can link to. */
const socialIcons: Record<SocialNetwork, string> = {
  Twitter: 'M24 4.557c-.883.392-1.832.656-2.828.775 1.017-.609 1.798-1.574 2.165-2.724-.951.564-2.005.974-3.127 1.195-.897-.957-2.178-1.555-3.594-1.555-3.179 0-5.515 2.966-4.797 6.045-4.091-.205-7.719-2.165-10.148-5.144-1.29 2.213-.669 5.108 1.523 6.574-.806-.026-1.566-.247-2.229-.616-.054 2.281 1.581 4.415 3.949 4.89-.693.188-1.452.232-2.224.084.626 1.956 2.444 3.379 4.6 3.419-2.07 1.623-4.678 2.348-7.29 2.04 2.179 1.397 4.768 2.212 7.548 2.212 9.142 0 14.307-7.721 13.995-14.646.962-.695 1.797-1.562 2.457-2.549z',
  YouTube: 'M19.615 3.184c-3.604-.246-11.631-.245-15.23 0-3.897.266-4.356 2.62-4.385 8.816.029 6.185.484 8.549 4.385 8.816 3.6.245 11.626.246 15.23 0 3.897-.266 4.356-2.62 4.385-8.816-.029-6.185-.484-8.549-4.385-8.816zm-10.615 12.816v-8l8 3.993-8 4.007z',
  Facebook: 'M9 8h-3v4h3v12h5v-12h3.642l.358-4h-4v-1.667c0-.955.192-1.333 1.115-1.333h2.885v-5h-3.808c-3.596 0-5.192 1.583-5.192 4.615v3.385z',
};

/** The footer; it links to the marketplace's own social profiles when SOCIAL_LINKS names them, else to none. */
export function Footer() {
  const socialLinks = useAppConfig().data?.socialLinks ?? [];
  return (
    <footer className="footer footer-horizontal footer-center mt-10 bg-neutral p-10 text-neutral-content">
      <aside className="flex flex-col items-center gap-1">
        <svg width="50" height="50" viewBox="0 0 32 32" aria-hidden="true" className="fill-none stroke-current">
          <path d="M8 14h16v6H8zM9 20v5M23 20v5M10 9h12v5H10z" strokeWidth="2" strokeLinejoin="round" />
        </svg>
        <p className="font-bold">{texts.brand}</p>
        <p>{texts.tagline}</p>
        <p className="max-w-md">{uiTexts.shell.footerBlurb}</p>
      </aside>
      {socialLinks.length > 0 && (
        <nav aria-label={uiTexts.shell.socialMedia}>
          <ul className="grid grid-flow-col gap-4">
            {socialLinks.map((link) => (
              <li key={link.url}>
                <a href={link.url} aria-label={link.network} rel="noopener noreferrer" target="_blank" className="inline-block">
                  <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" className="fill-current" aria-hidden="true">
                    <path d={socialIcons[link.network]} />
                  </svg>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </footer>
  );
}
