import { Link } from "react-router";
import { Logo } from "~/components/Logo.tsx";
import { copyrightYear, disclaimerParagraphs, footerLinks, footerTagline } from "~/content/site-chrome.ts";
import { fillCompany } from "~/lib/text.ts";

export function SiteFooter({ companyName }: { companyName: string }) {
  return (
    <footer className="bg-slate-900 pb-24 text-slate-200">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 md:grid-cols-2">
        <div>
          <p className="flex items-center gap-2 text-xl font-extrabold text-white">
            <Logo className="size-8" />
            {companyName}
          </p>
          <p className="mt-3 max-w-sm">{footerTagline}</p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-6 gap-y-2">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="underline-offset-2 hover:text-white hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="mx-auto max-w-6xl border-t border-slate-700 px-4 py-6 text-sm">
        {/* A native disclosure: it opens and closes with or without scripts, before and after hydration. */}
        <details>
          <summary className="w-fit cursor-pointer list-none font-semibold text-white underline underline-offset-2 [&::-webkit-details-marker]:hidden">
            Disclaimer
          </summary>
          <div className="mt-3 space-y-2 text-slate-300">
            {disclaimerParagraphs.map((paragraph) => (
              <p key={paragraph}>{fillCompany(paragraph, companyName)}</p>
            ))}
          </div>
        </details>
        <p className="mt-4 text-slate-400">
          © {copyrightYear} {companyName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
