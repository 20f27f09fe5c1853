import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";
import sonnerStylesheet from "sonner/dist/styles.css?url";

type Sonner = typeof import("sonner");

let sonnerLoading: Promise<Sonner> | undefined;
let sonnerLoaded: Sonner | undefined;
const loadedListeners = new Set<(module: Sonner) => void>();
let markToasterMounted!: () => void;
const toasterMounted = new Promise<void>((resolve) => (markToasterMounted = resolve));

/**
 * Sonner's styles, as a stylesheet of the site's own (the CSP allows no injected styles; decision 033), loaded
 * with sonner rather than with the page, so that the page's first view waits for no stylesheet.
 */
function loadSonnerStyles(): Promise<void> {
  return new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = sonnerStylesheet;
    link.addEventListener("load", () => resolve());
    link.addEventListener("error", () => {
      link.remove();
      reject(new Error(`${sonnerStylesheet} did not load`));
    });
    document.head.append(link);
  });
}

/** Downloads sonner and its styles once. A failed download is logged and forgotten, so that the next call tries again. */
function loadSonner(): Promise<Sonner> {
  sonnerLoading ??= Promise.all([import("sonner"), loadSonnerStyles()]).then(
    ([module]) => {
      sonnerLoaded = module;
      for (const listener of loadedListeners) listener(module);
      return module;
    },
    (error: unknown) => {
      sonnerLoading = undefined;
      console.error("Toasts could not be loaded:", error);
      throw error;
    },
  );
  return sonnerLoading;
}

/**
 * Starts downloading sonner in the background. Called when the visitor reaches the form, so the page
 * itself never ships it and it is usually in place by the time a request is answered. A failure is
 * logged by loadSonner; showToast tries again.
 */
export function prepareToasts(): void {
  loadSonner().catch(() => {});
}

/** Where toasts appear; renders nothing until sonner has loaded. */
export function Toasts(props: ToasterProps) {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps>>();
  useEffect(() => {
    const mount = (module: Sonner) => setToaster(() => module.Toaster);
    loadedListeners.add(mount);
    if (sonnerLoaded) mount(sonnerLoaded);
    return () => void loadedListeners.delete(mount);
  }, []);
  useEffect(() => {
    // The Toaster's own effects (its subscription) have run by now: children's effects run first.
    if (Toaster) markToasterMounted();
  }, [Toaster]);
  return Toaster ? <Toaster {...props} /> : null;
}

/**
 * Shows a toast, downloading sonner first if need be. Resolves false when sonner cannot be loaded
 * (a bad connection), so that the caller can tell the visitor another way.
 */
export async function showToast(tone: "success" | "error", title: string, description: string): Promise<boolean> {
  let toast: Sonner["toast"];
  try {
    ({ toast } = await loadSonner());
  } catch {
    return false;
  }
  await toasterMounted;
  toast[tone](title, { description });
  return true;
}
