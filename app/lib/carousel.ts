/** Slide index arithmetic for a carousel that wraps at both ends. */
export function nextIndex(index: number, count: number): number {
  return (index + 1) % count;
}

export function previousIndex(index: number, count: number): number {
  return (index - 1 + count) % count;
}
