import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";

type Sonner = typeof import("sonner");

let loading: Promise<Sonner> | undefined;

/** Sonner is needed only once a form is sent, so it loads after hydration instead of with the page. */
function loadSonner(): Promise<Sonner> {
  return (loading ??= import("sonner"));
}

export function Toasts(props: ToasterProps) {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps>>();
  useEffect(() => {
    void loadSonner().then((sonner) => setToaster(() => sonner.Toaster));
  }, []);
  return Toaster ? <Toaster {...props} /> : null;
}

export async function showToast(tone: "success" | "error", title: string, description: string): Promise<void> {
  const { toast } = await loadSonner();
  toast[tone](title, { description });
}
