import { describe, expect, it } from "vitest";
import { DEFERRED_MODULE_TYPE, DEFERRED_SCRIPT_TYPE, deferHydration } from "./deferred-hydration.server.ts";

const page =
  `<html><head><link rel="modulepreload" href="/assets/a.js"/><link rel="stylesheet" href="/assets/app.css"/>` +
  `<script>window.listening = true;</script><script type="application/ld+json">{}</script></head>` +
  `<body><main>Hi<script>window.earlyTap = true;</script></main>` +
  `<script>window.scrollKey = 1;</script><script nonce="abc">window.__ctx = {};</script>` +
  `<script type="module" async="" nonce="abc">import "/assets/a.js";</script><!--$-->` +
  `<script nonce="abc">window.__ctx.data = [];</script></body></html>`;

describe("deferHydration", () => {
  it("drops modulepreload links but keeps the stylesheet", () => {
    const html = deferHydration(page);
    expect(html).not.toContain("modulepreload");
    expect(html).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
  });

  it("makes the scripts at the end of the body inert, in their order, and adds a starter that runs after load", () => {
    const html = deferHydration(page);
    expect(html).toContain(
      `<script type="${DEFERRED_SCRIPT_TYPE}">window.scrollKey = 1;</script>` +
        `<script type="${DEFERRED_SCRIPT_TYPE}" nonce="abc">window.__ctx = {};</script>` +
        `<script type="${DEFERRED_MODULE_TYPE}" nonce="abc">import "/assets/a.js";</script><!--$-->` +
        `<script type="${DEFERRED_SCRIPT_TYPE}" nonce="abc">window.__ctx.data = [];</script>`,
    );
    expect(html).not.toContain('type="module"');
    expect(html).toMatch(/<script>\(function startDeferredScripts[\s\S]*"load"[\s\S]*<\/script><\/body>/);
  });

  it("leaves the page's own inline scripts and data blocks to run at once", () => {
    const html = deferHydration(page);
    expect(html).toContain("<script>window.listening = true;</script>");
    expect(html).toContain('<script type="application/ld+json">{}</script>');
    expect(html).toContain("<main>Hi<script>window.earlyTap = true;</script></main>");
  });

  it("defers the module script whatever the order of its attributes (a rendered page's nonce comes first)", () => {
    const rendered = page.replace(
      '<script type="module" async="" nonce="abc">',
      '<script nonce="abc" type="module" async="">',
    );
    expect(deferHydration(rendered, "abc")).toContain(
      `<script type="${DEFERRED_MODULE_TYPE}" nonce="abc">import "/assets/a.js";</script>`,
    );
  });

  it("gives the starter the response's nonce", () => {
    expect(deferHydration(page, "n0nce")).toMatch(/<script nonce="n0nce">\(function startDeferredScripts/);
  });
});
