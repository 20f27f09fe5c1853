import type { ReactNode } from "react";
import { Icon } from "~/components/Icon.tsx";
import { PhoneLink, shownPhone } from "~/components/PhoneLink.tsx";
import type { PhonePlacement } from "~/lib/phone-placements.ts";

const variants = {
  primary: "bg-call-600 text-white hover:bg-call-700",
  light: "bg-white text-brand-700 hover:bg-brand-50",
  brand: "bg-brand-700 text-white hover:bg-brand-900",
} as const;

const sizes = {
  md: "px-5 py-3 text-base",
  lg: "px-7 py-4 text-lg",
  xl: "px-8 py-5 text-xl sm:text-2xl",
} as const;

interface CallButtonProps {
  placement: PhonePlacement;
  children?: ReactNode;
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  className?: string;
}

/** A call link styled as a button. Without children it shows the phone number. */
export function CallButton({ placement, children, variant = "primary", size = "md", className = "" }: CallButtonProps) {
  return (
    <PhoneLink
      placement={placement}
      className={`inline-flex items-center justify-center gap-2 rounded-lg font-bold shadow-sm transition-colors ${variants[variant]} ${sizes[size]} ${className}`}
    >
      <Icon name="phone" className="size-5 shrink-0" />
      <span>{children ?? shownPhone().display}</span>
    </PhoneLink>
  );
}
