import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";

type Sonner = typeof import("sonner");

let sonner: Promise<Sonner> | undefined;
const loadedListeners = new Set<(module: Sonner) => void>();
let markToasterMounted!: () => void;
const toasterMounted = new Promise<void>((resolve) => (markToasterMounted = resolve));

/**
 * Starts loading sonner. Called when the visitor submits the form, so the page itself never ships
 * it: the request's round trip covers the download.
 */
export function prepareToasts(): Promise<Sonner> {
  return (sonner ??= import("sonner").then((module) => {
    for (const listener of loadedListeners) listener(module);
    return module;
  }));
}

/** Where toasts appear; renders nothing until prepareToasts() has loaded sonner. */
export function Toasts(props: ToasterProps) {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps>>();
  useEffect(() => {
    const mount = (module: Sonner) => setToaster(() => module.Toaster);
    loadedListeners.add(mount);
    if (sonner) void sonner.then(mount);
    return () => void loadedListeners.delete(mount);
  }, []);
  useEffect(() => {
    // The Toaster's own effects (its subscription) have run by now: children's effects run first.
    if (Toaster) markToasterMounted();
  }, [Toaster]);
  return Toaster ? <Toaster {...props} /> : null;
}

export async function showToast(tone: "success" | "error", title: string, description: string): Promise<void> {
  const { toast } = await prepareToasts();
  await toasterMounted;
  toast[tone](title, { description });
}
