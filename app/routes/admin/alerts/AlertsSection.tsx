import { useState } from "react";
import { useRevalidator } from "react-router";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { buttonClass, linkClass } from "../components/TableRegion.tsx";
import { deviceLabel } from "~/lib/device-label.ts";

/**
 * Phone alerts for the signed-in operator: "Turn on alerts on this device" subscribes the browser to Web Push
 * (it needs JavaScript, and on iPhone and iPad the console added to the Home Screen first), and the devices
 * with alerts are listed with "Remove", a console form. Its action route is /admin/alerts/devices.
 */

const ALERT_DEVICES_ACTION = "/admin/alerts/devices";

interface AlertDevice {
  id: string;
  deviceLabel: string;
  since: string;
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe() takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

async function subscribeThisDevice(vapidPublicKey: string): Promise<string> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "This browser cannot show alerts here. On an iPhone or iPad, add the console to the Home Screen first, then open it from there.";
  }
  if ((await Notification.requestPermission()) !== "granted") {
    return "Alerts are blocked for this site: allow notifications in the browser's settings, then try again.";
  }
  const registration = await navigator.serviceWorker.register("/admin/sw.js", { scope: "/admin/" });
  await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(vapidPublicKey),
    }));
  const response = await fetch(ALERT_DEVICES_ACTION, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...subscription.toJSON(), deviceLabel: deviceLabel(navigator.userAgent) }),
  });
  return response.ok ? "Alerts are on for this device." : "The device could not be saved. Please try again.";
}

export function AlertsSection({
  devices,
  vapidPublicKey,
  returnTo,
}: {
  devices: AlertDevice[];
  vapidPublicKey: string;
  /** The console page to come back to after "Remove". */
  returnTo: string;
}) {
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const revalidator = useRevalidator();
  const turnOn = () => {
    setBusy(true);
    subscribeThisDevice(vapidPublicKey)
      .catch(() => "Alerts could not be turned on in this browser.")
      .then((result) => {
        setMessage(result);
        setBusy(false);
        return revalidator.revalidate();
      });
  };
  return (
    <section aria-labelledby="alerts-heading" className="mt-6">
      <h2 id="alerts-heading" className="text-xl font-bold text-slate-900">
        Phone alerts
      </h2>
      <p className="mt-2 max-w-prose text-slate-800">
        Every new lead, opt-out and missed call pops up on each device with alerts, with the service asked for (never
        the visitor&apos;s contact details). Tapping one opens it in the console.
      </p>
      <p className="mt-3">
        <button type="button" onClick={turnOn} disabled={busy} aria-describedby="alerts-ios" className={buttonClass}>
          Turn on alerts on this device
        </button>
      </p>
      <p id="alerts-ios" className="mt-2 max-w-prose text-sm text-slate-700">
        On an iPhone or iPad, first add the console to the Home Screen (Share, then &ldquo;Add to Home Screen&rdquo;),
        open it from there, and turn alerts on in it.
      </p>
      <noscript>
        <p className="mt-2 font-semibold text-slate-900">Turning alerts on needs JavaScript.</p>
      </noscript>
      <p role="status" className="mt-2 font-semibold text-slate-900">
        {message}
      </p>

      <h3 className="mt-6 text-lg font-bold text-slate-900">Devices with alerts</h3>
      {devices.length === 0 ? (
        <p className="mt-2 text-slate-800">None yet.</p>
      ) : (
        <ul className="mt-2 grid gap-2">
          {devices.map((device) => (
            <li key={device.id} className="flex flex-wrap items-center gap-3 rounded border border-slate-300 p-3">
              <span className="text-slate-900">
                {device.deviceLabel}, since {device.since}
              </span>
              <ConsoleForm name="remove-device" row={device.id} action={ALERT_DEVICES_ACTION} className="ml-auto">
                <input type="hidden" name="id" value={device.id} />
                <input type="hidden" name="returnTo" value={returnTo} />
                <button
                  type="submit"
                  aria-label={`Remove ${device.deviceLabel}, since ${device.since}`}
                  className={linkClass}
                >
                  Remove
                </button>
              </ConsoleForm>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
