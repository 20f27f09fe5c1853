import { describe, expect, it } from "vitest";
import { nextIndex, previousIndex, slideAt } from "./carousel.ts";

describe("carousel index arithmetic", () => {
  it("moves forward and wraps from the last slide to the first", () => {
    expect([0, 1, 2].map((index) => nextIndex(index, 3))).toEqual([1, 2, 0]);
  });
  it("moves back and wraps from the first slide to the last", () => {
    expect([0, 1, 2].map((index) => previousIndex(index, 3))).toEqual([2, 0, 1]);
  });
});

describe("slideAt", () => {
  it("names the slide nearest the scroll position", () => {
    expect(slideAt(0, 400, 3)).toBe(0);
    expect(slideAt(390, 400, 3)).toBe(1);
    expect(slideAt(800, 400, 3)).toBe(2);
  });
  it("stays within the slides when the track is overscrolled or not laid out", () => {
    expect(slideAt(-20, 400, 3)).toBe(0);
    expect(slideAt(5000, 400, 3)).toBe(2);
    expect(slideAt(300, 0, 3)).toBe(0);
  });
});
