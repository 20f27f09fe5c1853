/** The item open after a click on `clicked` in an accordion that opens one item at a time. */
export function toggleOpenItem(open: number | null, clicked: number): number | null {
  return open === clicked ? null : clicked;
}
