import { describe, expect, it } from "vitest";
import { installGoogleAnalytics } from "./analytics.ts";

function fakePage({ globalPrivacyControl }: { globalPrivacyControl?: boolean }) {
  const appended: { src: string; async: boolean }[] = [];
  const listeners: Record<string, () => void> = {};
  const win = {
    navigator: { globalPrivacyControl },
    addEventListener: (type: string, listener: () => void) => (listeners[type] = listener),
  } as unknown as Parameters<typeof installGoogleAnalytics>[0];
  const doc = {
    readyState: "interactive",
    createElement: () => ({ src: "", async: false }),
    head: { appendChild: (script: { src: string; async: boolean }) => appended.push(script) },
  } as unknown as Document;
  return { win, doc, appended, listeners };
}

describe("Google Analytics loader", () => {
  it("queues events at once and fetches gtag.js only after the load event", async () => {
    const page = fakePage({});
    installGoogleAnalytics(page.win, page.doc, "G-TEST123");
    expect(typeof page.win.gtag).toBe("function");
    page.win.gtag!("event", "phone_click", { event_label: "hero" });
    expect(page.win.dataLayer).toHaveLength(3);
    expect(page.appended).toHaveLength(0);
    page.listeners.load!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.appended.map((script) => script.src)).toEqual([
      "https://www.googletagmanager.com/gtag/js?id=G-TEST123",
    ]);
  });

  it("does nothing at all when the visitor sends Global Privacy Control", () => {
    const page = fakePage({ globalPrivacyControl: true });
    installGoogleAnalytics(page.win, page.doc, "G-TEST123");
    expect(page.win.gtag).toBeUndefined();
    expect(page.win.dataLayer).toBeUndefined();
    expect(page.listeners.load).toBeUndefined();
  });
});
