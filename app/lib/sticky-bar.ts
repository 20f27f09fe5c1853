/** The bottom call bar appears once the page has scrolled past this many pixels. */
const STICKY_BAR_THRESHOLD_PX = 300;

export function isStickyBarVisible(scrollY: number): boolean {
  return scrollY > STICKY_BAR_THRESHOLD_PX;
}
