import { describe, expect, it } from "vitest";
import { DEFERRED_MODULE_TYPE, deferHydration } from "./deferred-hydration.server.ts";

const page = `<html><head><link rel="modulepreload" href="/assets/a.js"/><link rel="stylesheet" href="/assets/app.css"/></head><body><main>Hi</main><script>window.__ctx = {};</script><script type="module" async="" nonce="abc">import "/assets/a.js";</script></body></html>`;

describe("deferHydration", () => {
  it("drops modulepreload links but keeps the stylesheet", () => {
    const html = deferHydration(page);
    expect(html).not.toContain("modulepreload");
    expect(html).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
  });

  it("makes the module script inert and adds a starter that runs after load", () => {
    const html = deferHydration(page);
    expect(html).toContain(`<script type="${DEFERRED_MODULE_TYPE}" nonce="abc">import "/assets/a.js";</script>`);
    expect(html).not.toContain('type="module"');
    expect(html).toMatch(/<script>\(function startDeferredModules[\s\S]*"load"[\s\S]*<\/script><\/body>/);
    expect(html).toContain("<script>window.__ctx = {};</script>");
  });

  it("gives the starter the response's nonce", () => {
    expect(deferHydration(page, "n0nce")).toMatch(/<script nonce="n0nce">\(function startDeferredModules/);
  });
});
