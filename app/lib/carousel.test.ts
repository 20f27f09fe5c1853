import { describe, expect, it } from "vitest";
import { nextIndex, previousIndex } from "./carousel.ts";

describe("carousel index arithmetic", () => {
  it("moves forward and wraps from the last slide to the first", () => {
    expect([0, 1, 2].map((index) => nextIndex(index, 3))).toEqual([1, 2, 0]);
  });
  it("moves back and wraps from the first slide to the last", () => {
    expect([0, 1, 2].map((index) => previousIndex(index, 3))).toEqual([2, 0, 1]);
  });
});
