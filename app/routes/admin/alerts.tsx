import type { Route } from "./+types/alerts";
import { AlertsSection } from "./components/AlertsSection.tsx";
import { env } from "~/config/env.server.ts";
import { formatTime } from "~/lib/operator-time.ts";
import { requireOperator } from "~/server/console/index.server.ts";
import { listPushSubscriptions } from "~/server/alerts/index.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Alerts" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  const operator = requireOperator(context);
  const devices = await listPushSubscriptions(context.services.db, operator.id);
  return {
    devices: devices.map((device) => ({
      id: device.id,
      deviceLabel: device.deviceLabel,
      since: formatTime(device.createdAt, env.OPERATOR_TIME_ZONE),
    })),
    vapidPublicKey: context.services.vapidPublicKey,
  };
}

/** The signed-in operator's phone alerts: turn them on for this device, and the devices that have them. */
export default function Alerts({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Alerts</h1>
      <AlertsSection devices={loaderData.devices} vapidPublicKey={loaderData.vapidPublicKey} returnTo="/admin/alerts" />
    </>
  );
}
