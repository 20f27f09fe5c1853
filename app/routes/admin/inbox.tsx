import type { Route } from "./+types/inbox";
import { requireOperator } from "~/server/console/operator.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Inbox" }, { name: "robots", content: "noindex" }];

export function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  return null;
}

/** The leads inbox (contact requests, newest first). */
export default function Inbox() {
  return <h1 className="text-2xl font-bold text-slate-900">Inbox</h1>;
}
