import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { envSchema } from "~/config/env.server.ts";

// The documents a newcomer reads: the README and everything under docs/. Every link in them resolves, and every
// setting the server reads is described in .env.example and in one guide's configuration table.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

const documents = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];

/** The text outside fenced code blocks and inline code, where links and headings are read. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of withoutFences.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

function brokenLinks(file: string, markdown = readFileSync(file, "utf8")): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!)) continue; // https:, mailto: and other schemes are not checked here
    const [path, anchor] = target!.split("#") as [string, string | undefined];
    const linked = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
    if (!existsSync(linked)) broken.push(`${target} (no such file)`);
    else if (anchor !== undefined && !(linked.endsWith(".md") && anchors(readFileSync(linked, "utf8")).has(anchor))) {
      broken.push(`${target} (no such heading)`);
    }
  }
  return broken;
}

/** The variables of every table headed "variable" in a guide, with the guide that lists each. */
function guideTableVariables(): { variable: string; guide: string }[] {
  return markdownFiles(join(root, "docs/guides")).flatMap((guide) => {
    const rows: { variable: string; guide: string }[] = [];
    let inTable = false;
    for (const line of readFileSync(guide, "utf8").split("\n")) {
      if (!line.startsWith("|")) inTable = false;
      else if (/^\|\s*variable\s*\|/i.test(line)) inTable = true;
      else if (inTable) {
        const variable = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line)?.[1];
        if (variable) rows.push({ variable, guide: relative(root, guide) });
      }
    }
    return rows;
  });
}

describe("documentation", () => {
  test("the README stays under 12 KB", () => {
    expect(statSync(join(root, "README.md")).size).toBeLessThan(12 * 1024);
  });

  test("every relative link and #anchor in the README and docs/ resolves", () => {
    const broken = documents.flatMap((file) => brokenLinks(file).map((link) => `${relative(root, file)}: ${link}`));
    expect(broken).toEqual([]);
  });

  test("every setting the server reads is in .env.example and in exactly one guide's configuration table", () => {
    const settings = Object.keys(envSchema.shape).sort();
    const example = readFileSync(join(root, ".env.example"), "utf8");
    expect(settings.filter((name) => !new RegExp(`^${name}=`, "m").test(example))).toEqual([]);

    const listed = guideTableVariables();
    const guidesOf = (name: string) => listed.filter((row) => row.variable === name).map((row) => row.guide);
    const notOnce = settings.filter((name) => guidesOf(name).length !== 1).map((name) => `${name}: ${guidesOf(name)}`);
    expect(notOnce).toEqual([]);
    // Nothing documented that the server no longer reads.
    expect(listed.map((row) => row.variable).filter((name) => !settings.includes(name))).toEqual([]);
  });

  test("the link check sees a missing file and a missing heading, and skips code", () => {
    expect(
      anchors("# Fees, returns and balances\n## `CALL_TRACKING_POOL` and more\n## Fees, returns and balances"),
    ).toEqual(new Set(["fees-returns-and-balances", "call_tracking_pool-and-more", "fees-returns-and-balances-1"]));
    const links =
      "[a](docs/nowhere.md) [b](docs/guides/calls.md#nowhere) [c](docs/guides/calls.md#configuration) " +
      "[d](#two-commands) [e](https://example.com/x) `[f](nowhere.md)`\n```\n[g](nowhere.md)\n```\n";
    expect(brokenLinks(join(root, "README.md"), links)).toEqual([
      "docs/nowhere.md (no such file)",
      "docs/guides/calls.md#nowhere (no such heading)",
    ]);
  });
});
