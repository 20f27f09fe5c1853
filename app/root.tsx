import { useEffect, type ReactNode } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import faviconSvg from "../public/favicon.svg?raw";
import { IconSprite } from "~/components/Icon.tsx";
import { phoneClickTrackingScript, trackingNumberScript } from "~/components/PhoneLink.tsx";
import { SiteFooter } from "~/components/SiteFooter.tsx";
import { SiteHeader } from "~/components/SiteHeader.tsx";
import { StickyCallBar } from "~/components/StickyCallBar.tsx";
import { TopBanner } from "~/components/TopBanner.tsx";
import { siteConfig } from "~/config/site.ts";
import { signedLinkRoute } from "~/content/site-pages.ts";
import { googleAnalyticsScript } from "~/lib/analytics.ts";
import { useClientPageViews } from "~/components/use-client-page-views.ts";
import { useNonce } from "~/lib/nonce.ts";
import { usePageChrome } from "~/lib/page-chrome.ts";

// The icon is written into every page: its request, which the browser sends around the first paint, would cost
// a slow phone's first view another round trip (decision 152). `#` is the one character a data URL must escape here.
const FAVICON_DATA_URL = `data:image/svg+xml,${faviconSvg.trim().replaceAll('"', "'").replaceAll("#", "%23")}`;

// In production each page carries the CSS rules it uses, and the whole stylesheet loads before the app starts
// (entry.server.tsx); in development it stays a stylesheet, so that Vite can update it in place.
export const links: Route.LinksFunction = () => [
  ...(import.meta.env.DEV ? [{ rel: "stylesheet", href: stylesheet }] : []),
  { rel: "icon", href: FAVICON_DATA_URL, type: "image/svg+xml" },
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const chrome = usePageChrome();
  // The operator console has its own header (routes/admin/layout.tsx), and no visitor tracking; nor has a page
  // opened by a signed link, whose address is someone's access and is not a visit.
  const { pathname } = useLocation();
  const isConsole = pathname.startsWith("/admin");
  const untracked = isConsole || signedLinkRoute(pathname) !== undefined;
  useClientPageViews();
  useEffect(() => {
    // Marks the moment interactive parts work; scripts start after the load event (decision 003).
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e40af" />
        <Meta />
        <Links />
        {untracked ? null : (
          // The server's HTML carries the listener; hydration keeps that script as it is, so the browser's
          // bundle need not carry its text (import.meta.env.SSR is false there, and the code is left out).
          <script
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? phoneClickTrackingScript() : "" }}
          />
        )}
        {siteConfig.callTracking && !untracked ? (
          <script
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? trackingNumberScript() : "" }}
          />
        ) : null}
        {siteConfig.ga4MeasurementId && !untracked ? (
          <script
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: googleAnalyticsScript(siteConfig.ga4MeasurementId) }}
          />
        ) : null}
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
        >
          Skip to content
        </a>
        {isConsole ? (
          children
        ) : (
          <>
            <IconSprite />
            <TopBanner text={chrome.bannerText} />
            <SiteHeader companyName={chrome.companyName} />
            <main id="main">{children}</main>
            <SiteFooter companyName={chrome.companyName} />
            <StickyCallBar />
          </>
        )}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // React Router already replaces server errors' messages in production ("Unexpected Server Error"),
  // so the message shown here never carries internals; stacks are never shown.
  const message = isRouteErrorResponse(error)
    ? error.statusText || String(error.data ?? "")
    : error instanceof Error
      ? error.message
      : "Unknown error";
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center">
      <title>{`Error | ${siteConfig.companyName}`}</title>
      <h1 className="text-3xl font-bold">Unexpected Application Error!</h1>
      <p className="mt-4 text-xl font-semibold">{status}</p>
      <p className="mt-2 text-slate-700">{message}</p>
    </section>
  );
}

function NotFound() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);
  return (
    <section className="mx-auto max-w-3xl px-4 py-24 text-center">
      <title>{`Page not found | ${siteConfig.companyName}`}</title>
      <h1 className="text-6xl font-extrabold text-brand-700">404</h1>
      <p className="mt-4 text-2xl font-semibold">Oops! Page not found</p>
      <a href="/" className="mt-6 inline-block font-semibold text-brand-700 underline underline-offset-2">
        Return to Home
      </a>
    </section>
  );
}
