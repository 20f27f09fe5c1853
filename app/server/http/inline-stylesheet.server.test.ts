import { describe, expect, it } from "vitest";
import { inlineStylesheet } from "./inline-stylesheet.server.ts";

const page = (body: string) =>
  `<html><head><meta charSet="utf-8"/><title>Hi</title><link rel="stylesheet" href="/assets/console.css"/></head><body>${body}</body></html>`;
const inlined = (body: string, css: string) => /<style>(.*)<\/style>/.exec(inlineStylesheet(page(body), css))![1];

describe("inline stylesheet", () => {
  it("puts the CSS first in the head, ahead of any stylesheet that overrides it", () => {
    expect(inlineStylesheet(page(`<p class="a">Hi</p>`), ".a{color:red}")).toBe(
      `<html><head><meta charSet="utf-8"/><style>.a{color:red}</style><title>Hi</title><link rel="stylesheet" href="/assets/console.css"/></head><body><p class="a">Hi</p></body></html>`,
    );
  });

  it("gives the style a rendered response's nonce", () => {
    expect(inlineStylesheet(page(""), "html{color:red}", "abc")).toContain(
      `<style nonce="abc">html{color:red}</style>`,
    );
  });

  it("refuses CSS that would end the element early", () => {
    expect(() => inlineStylesheet(page(""), "a{content:'</style>'}")).toThrow();
  });

  it("keeps only the selectors whose classes the page uses, and the groups that still hold a rule", () => {
    const css =
      ".a{color:red}.b{color:blue}.a .b,.a>p{margin:0}@media (min-width:40rem){.b{gap:0}}@media print{.a{gap:1px}}";
    expect(inlined(`<p class="a">Hi</p>`, css)).toBe(".a{color:red}.a>p{margin:0}@media print{.a{gap:1px}}");
  });

  it("reads escaped class names as Tailwind writes them, and attribute values as React escapes them", () => {
    const css =
      ".sm\\:flex{display:flex}.mt-0\\.5{margin-top:2px}.\\32 xl\\:p-4{padding:1rem}" +
      ".\\[\\&\\:\\:-webkit-details-marker\\]\\:hidden::-webkit-details-marker{display:none}.other\\:x{color:red}";
    const body = `<summary class="sm:flex mt-0.5 2xl:p-4 [&amp;::-webkit-details-marker]:hidden">Q</summary>`;
    expect(inlined(body, css)).toBe(
      ".sm\\:flex{display:flex}.mt-0\\.5{margin-top:2px}.\\32 xl\\:p-4{padding:1rem}" +
        ".\\[\\&\\:\\:-webkit-details-marker\\]\\:hidden::-webkit-details-marker{display:none}",
    );
  });

  it("does not require what a selector only negates or offers as one choice among several", () => {
    const css = '.a:not(.absent){color:red}:is(.absent,.a) p{margin:0}[data-x=".absent"]{gap:0}';
    expect(inlined(`<p class="a">Hi</p>`, css)).toBe(css);
  });

  it("leaves out the base styles of elements the page does not have, and form fields' parts without a field", () => {
    const css = "h1,h2,table{margin:0}hr{height:0}::-webkit-datetime-edit{padding:0}::placeholder{opacity:1}p{gap:0}";
    expect(inlined(`<h1>Hi</h1><p>Text</p>`, css)).toBe("h1{margin:0}p{gap:0}");
    expect(inlined(`<input name="zip"/>`, css)).toContain("::-webkit-datetime-edit{padding:0}::placeholder{opacity:1}");
  });

  it("leaves out custom properties that nothing on the page reads, with their registrations", () => {
    const css =
      '@property --tw-used{syntax:"*";inherits:false}@property --tw-unused{syntax:"*";inherits:false}' +
      ":root{--color-a:red;--color-b:blue;--tw-used:var(--color-a)}" +
      ".shadow{--tw-unused:1px;box-shadow:var(--tw-used)}.other{color:var(--color-b)}";
    expect(inlined(`<p class="shadow">Hi</p>`, css)).toBe(
      '@property --tw-used{syntax:"*";inherits:false}:root{--color-a:red;--tw-used:var(--color-a)}' +
        ".shadow{box-shadow:var(--tw-used)}",
    );
  });

  it("keeps the license notice and statements, and drops other comments", () => {
    const css = "/*! tailwindcss | MIT License */@layer theme,base;/* a note */.a{color:red}";
    expect(inlined(`<p class="a">Hi</p>`, css)).toBe("/*! tailwindcss | MIT License */@layer theme,base;.a{color:red}");
  });
});
