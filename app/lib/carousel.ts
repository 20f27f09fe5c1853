/** Slide arithmetic for a carousel that wraps at both ends and slides in 500 ms. */
export function nextIndex(index: number, count: number): number {
  return (index + 1) % count;
}

export function previousIndex(index: number, count: number): number {
  return (index - 1 + count) % count;
}

/** A move from one slide to another takes 500 ms. */
export const SLIDE_DURATION_MS = 500;

/** The slide showing in a track of full-width slides scrolled to `scrollLeft`: the nearest one. */
export function slideAt(scrollLeft: number, slideWidth: number, count: number): number {
  if (slideWidth <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.round(scrollLeft / slideWidth)));
}
