/** The mark: a water drop over a pipe elbow, drawn inline so it costs no request. */
export function Logo({ className = "size-9" }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="9" fill="#1e40af" />
      <path d="M20 7s-7 7.6-7 12.6a7 7 0 0 0 14 0C27 14.6 20 7 20 7Z" fill="#93c5fd" />
      <path d="M9 33h9v-5h13" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
