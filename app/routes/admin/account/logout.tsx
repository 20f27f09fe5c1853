import { redirect } from "react-router";
import type { Route } from "./+types/logout";

/** "Sign out": ends the session on the server, so the cookie is worthless even if it was copied. */
export async function action({ request, context }: Route.ActionArgs) {
  const setCookie = await context.services.consoleAuth.signOut(request.headers.get("Cookie"));
  throw redirect("/admin/login", { status: 303, headers: { "Set-Cookie": setCookie } });
}

/** Signing out is a POST (a link could be followed by a prefetch); a GET goes back to the console. */
export function loader() {
  throw redirect("/admin", 303);
}
