import type { Route } from "./+types/privacy";
import { LegalDocument } from "~/components/sections/LegalDocument.tsx";
import { privacyPolicy, privacySeo } from "~/content/legal/privacy.ts";
import { pageMeta } from "~/lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta(privacySeo);

export default function Privacy() {
  return <LegalDocument content={privacyPolicy} />;
}
