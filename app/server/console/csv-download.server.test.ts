import { expect, test } from "vitest";
import { csvDownload } from "./csv-download.server.ts";

test("a download makes its next chunk while the response takes this one, and none after it until then", async () => {
  let made = 0;
  async function* chunks() {
    for (;;) {
      made++;
      yield `line ${made}\r\n`;
    }
  }
  const reader = csvDownload(chunks(), "leads").body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toBe("line 1\r\n");
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(made).toBe(2);
  await reader.read();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(made).toBe(3);
  await reader.cancel();
});
