import { expect, it } from "vitest";
import { isStickyBarVisible } from "./sticky-bar.ts";

it("shows the bottom call bar only past 300 px of scroll", () => {
  expect(isStickyBarVisible(0)).toBe(false);
  expect(isStickyBarVisible(300)).toBe(false);
  expect(isStickyBarVisible(300.5)).toBe(true);
  expect(isStickyBarVisible(1200)).toBe(true);
});
