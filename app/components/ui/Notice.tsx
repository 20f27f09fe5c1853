import { Icon } from "~/components/Icon.tsx";

interface NoticeProps {
  tone: "success" | "error";
  title: string;
  text: string;
}

/** An inline message after a submission: a status for success, an alert for an error. */
export function Notice({ tone, title, text }: NoticeProps) {
  const success = tone === "success";
  return (
    <div
      role={success ? "status" : "alert"}
      className={`flex gap-3 rounded-lg border p-4 ${success ? "border-green-300 bg-green-50 text-green-900" : "border-red-300 bg-red-50 text-red-900"}`}
    >
      <Icon name={success ? "check" : "alert"} className="mt-0.5 size-5 shrink-0" />
      <div>
        <p className="font-semibold">{title}</p>
        <p className="mt-1 text-sm">{text}</p>
      </div>
    </div>
  );
}
