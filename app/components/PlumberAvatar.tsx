import type { AvatarTone } from "~/content/types.ts";

const palettes: Record<AvatarTone, { background: string; shirt: string; skin: string; cap: string }> = {
  blue: { background: "#dbeafe", shirt: "#1e40af", skin: "#e0ac69", cap: "#1e3a8a" },
  green: { background: "#dcfce7", shirt: "#15803d", skin: "#f1c27d", cap: "#166534" },
  amber: { background: "#fef3c7", shirt: "#b45309", skin: "#8d5524", cap: "#92400e" },
  slate: { background: "#e2e8f0", shirt: "#334155", skin: "#c68642", cap: "#1e293b" },
};

/** A drawn head-and-shoulders portrait in a work cap; decorative, since the name sits beside it. */
export function PlumberAvatar({ tone, className = "size-20" }: { tone: AvatarTone; className?: string }) {
  const colors = palettes[tone];
  return (
    <svg className={className} viewBox="0 0 80 80" aria-hidden="true" focusable="false">
      <circle cx="40" cy="40" r="40" fill={colors.background} />
      <path d="M14 74c2-14 13-22 26-22s24 8 26 22a40 40 0 0 1-52 0Z" fill={colors.shirt} />
      <path d="M33 52h14l-7 9z" fill="#fff" />
      <circle cx="40" cy="34" r="14" fill={colors.skin} />
      <path d="M25 31c0-9 7-14 15-14s15 5 15 14z" fill={colors.cap} />
      <path d="M52 30h9a2 2 0 0 1 0 4H52z" fill={colors.cap} />
    </svg>
  );
}
