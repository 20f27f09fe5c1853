/** How long ago something happened, as a phone's narrow inbox card says it: "just now", "12 min ago", "3 h ago", "2 days ago". */
export function timeAgo(instant: Date, now: Date = new Date()): string {
  const minutes = Math.floor((now.getTime() - instant.getTime()) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}
