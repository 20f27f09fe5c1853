import { useEffect, useState } from "react";
import { shownPhone } from "~/components/PhoneLink.tsx";
import { CallButton } from "~/components/ui/CallButton.tsx";
import { isStickyBarVisible } from "~/lib/sticky-bar.ts";

export function StickyCallBar() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(isStickyBarVisible(window.scrollY));
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);
  return (
    <aside
      aria-label="Call us"
      data-testid="sticky-call-bar"
      hidden={!visible}
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 p-3 shadow-[0_-4px_12px_rgba(0,0,0,0.08)]"
    >
      <CallButton placement="sticky_bottom_button" className="w-full" size="lg">
        Call Now 24/7: {shownPhone().display}
      </CallButton>
    </aside>
  );
}
