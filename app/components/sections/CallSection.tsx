import type { ReactNode } from "react";
import { shownPhone } from "~/components/PhoneLink.tsx";
import { CallButton } from "~/components/ui/CallButton.tsx";
import { SectionHeader } from "~/components/sections/SectionHeader.tsx";
import type { PhonePlacement } from "~/lib/phone-placements.ts";
import type { SectionHeading } from "~/content/types.ts";

interface CallSectionProps {
  heading: SectionHeading;
  placement: PhonePlacement;
  /** Words before the number on the button, such as "Call Now". Without it the button shows the number alone. */
  callLabel?: string;
  id?: string;
  children?: ReactNode;
}

/** A dark band with a heading and a large button showing the phone number. */
export function CallSection({ heading, placement, callLabel, id, children }: CallSectionProps) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-24 bg-brand-900 py-16 text-white">
      <div className="mx-auto max-w-6xl px-4 text-center [&_h2]:text-white [&_p]:text-brand-100">
        <SectionHeader heading={heading} id={headingId} />
        <CallButton placement={placement} size="xl" className="mt-8">
          {callLabel ? `${callLabel}: ${shownPhone().display}` : undefined}
        </CallButton>
      </div>
      {children ? <div className="mx-auto mt-12 max-w-6xl px-4">{children}</div> : null}
    </section>
  );
}
