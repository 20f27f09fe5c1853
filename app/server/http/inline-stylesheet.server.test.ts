import { describe, expect, it } from "vitest";
import { inlineStylesheet } from "./inline-stylesheet.server.ts";

const page = `<html><head><meta charSet="utf-8"/><title>Hi</title><link rel="stylesheet" href="/assets/console.css"/></head><body></body></html>`;

describe("inline stylesheet", () => {
  it("puts the CSS first in the head, ahead of any stylesheet that overrides it", () => {
    expect(inlineStylesheet(page, "a{color:red}")).toBe(
      `<html><head><meta charSet="utf-8"/><style>a{color:red}</style><title>Hi</title><link rel="stylesheet" href="/assets/console.css"/></head><body></body></html>`,
    );
  });

  it("gives the style a rendered response's nonce", () => {
    expect(inlineStylesheet(page, "a{}", "abc")).toContain(`<style nonce="abc">a{}</style>`);
  });

  it("refuses CSS that would end the element early", () => {
    expect(() => inlineStylesheet(page, "a{content:'</style>'}")).toThrow();
  });
});
