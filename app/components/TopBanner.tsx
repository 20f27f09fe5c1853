import { PhoneLink } from "~/components/PhoneLink.tsx";

export function TopBanner({ text }: { text: string }) {
  return (
    <aside aria-label="Availability">
      <PhoneLink
        placement="header_banner"
        className="flex items-center justify-center gap-2 bg-brand-900 px-4 py-2 text-sm font-semibold text-white"
      >
        <span className="relative flex size-3" aria-hidden="true">
          <span className="animate-blink absolute inline-flex size-full rounded-full bg-green-400" />
          <span className="relative inline-flex size-3 rounded-full bg-green-500" />
        </span>
        <span>{text}</span>
      </PhoneLink>
    </aside>
  );
}
