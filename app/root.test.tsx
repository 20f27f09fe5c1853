import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, test } from "vitest";
import { siteConfig } from "~/config/site.ts";
import { SITE_EVENTS_ENDPOINT } from "~/lib/site-events.ts";
import { TRACKING_NUMBER_ENDPOINT } from "~/lib/tracking-number.ts";
import { Layout } from "./root.tsx";

/** The document the layout renders at `path`, with GA4 and call tracking configured. */
function documentAt(path: string): string {
  const Page = createRoutesStub([
    {
      path: "*",
      Component: () => (
        <Layout>
          <p>page</p>
        </Layout>
      ),
    },
  ]);
  return renderToString(<Page initialEntries={[path]} />);
}

describe("visitor tracking in the layout", () => {
  const configured = { ga4MeasurementId: siteConfig.ga4MeasurementId, callTracking: siteConfig.callTracking };
  afterEach(() => Object.assign(siteConfig, configured));

  test("no page opened by a signed link loads GA4, the tracking number or the counting listener; a site page does", () => {
    Object.assign(siteConfig, { ga4MeasurementId: "G-TEST12345", callTracking: true });
    const tracked = documentAt("/about");
    expect(tracked).toContain("G-TEST12345");
    expect(tracked).toContain("googletagmanager");
    expect(tracked).toContain(SITE_EVENTS_ENDPOINT);
    expect(tracked).toContain(TRACKING_NUMBER_ENDPOINT);
    for (const path of ["/r/a-token", "/statements/a-token", "/Statements/a-token", "/r/a-token.data"]) {
      const page = documentAt(path);
      expect(page).toContain("<p>page</p>");
      expect(page).not.toContain("G-TEST12345");
      expect(page).not.toContain("googletagmanager");
      expect(page).not.toContain(SITE_EVENTS_ENDPOINT);
      expect(page).not.toContain(TRACKING_NUMBER_ENDPOINT);
    }
  });
});
