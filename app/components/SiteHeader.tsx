import { Link } from "react-router";
import { Logo } from "~/components/Logo.tsx";
import { PhoneLink, shownPhone } from "~/components/PhoneLink.tsx";
import { Icon } from "~/components/Icon.tsx";

export function SiteHeader({ companyName }: { companyName: string }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 text-xl font-extrabold text-brand-900">
          <Logo />
          <span>{companyName}</span>
        </Link>
        <PhoneLink
          placement="header"
          className="inline-flex items-center gap-2 rounded-lg bg-call-600 px-4 py-2 font-bold text-white hover:bg-call-700"
        >
          <Icon name="phone" className="size-5" />
          <span>Call Now</span>
          <span className="hidden md:inline" data-testid="header-phone-number">
            {shownPhone().display}
          </span>
        </PhoneLink>
      </div>
    </header>
  );
}
