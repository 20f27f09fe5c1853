/** An original line illustration of a plumber's van outside a house; inline, so it needs no request. */
export function HeroIllustration({ className = "" }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 480 360" role="img" aria-label="A plumber's van parked outside a house">
      <rect width="480" height="360" rx="24" fill="#dbeafe" />
      <circle cx="392" cy="70" r="34" fill="#fde68a" />
      <path d="M0 286h480v74H0z" fill="#bbf7d0" />
      <path d="M70 150 170 80l100 70v136H70z" fill="#fff" stroke="#1e3a8a" strokeWidth="6" strokeLinejoin="round" />
      <path
        d="M50 160 170 74l120 86"
        fill="none"
        stroke="#1e40af"
        strokeWidth="12"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <rect x="145" y="210" width="50" height="76" rx="4" fill="#1e40af" />
      <rect x="92" y="170" width="40" height="36" rx="3" fill="#93c5fd" stroke="#1e3a8a" strokeWidth="4" />
      <rect x="208" y="170" width="40" height="36" rx="3" fill="#93c5fd" stroke="#1e3a8a" strokeWidth="4" />
      <path d="M262 232h128l42 30v38H262z" fill="#fff" stroke="#1e3a8a" strokeWidth="6" strokeLinejoin="round" />
      <path d="M390 236v28h40" fill="none" stroke="#1e3a8a" strokeWidth="5" strokeLinejoin="round" />
      <rect x="272" y="246" width="104" height="26" rx="4" fill="#15803d" />
      <path d="M286 259h76" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
      <circle cx="298" cy="302" r="18" fill="#1e293b" />
      <circle cx="298" cy="302" r="7" fill="#cbd5e1" />
      <circle cx="402" cy="302" r="18" fill="#1e293b" />
      <circle cx="402" cy="302" r="7" fill="#cbd5e1" />
      <path d="M330 118s-24 26-24 44a24 24 0 0 0 48 0c0-18-24-44-24-44Z" fill="#3b82f6" />
      <path d="M322 160a9 9 0 0 0 9 9" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
