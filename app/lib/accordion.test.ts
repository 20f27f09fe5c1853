import { describe, expect, it } from "vitest";
import { toggleOpenItem } from "./accordion.ts";

describe("toggleOpenItem", () => {
  it("opens the clicked item when none is open", () => {
    expect(toggleOpenItem(null, 2)).toBe(2);
  });

  it("moves to the clicked item, closing the open one", () => {
    expect(toggleOpenItem(0, 3)).toBe(3);
  });

  it("closes the open item when it is clicked again", () => {
    expect(toggleOpenItem(1, 1)).toBeNull();
  });
});
