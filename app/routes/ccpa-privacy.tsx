import type { Route } from "./+types/ccpa-privacy";
import { LegalDocument } from "~/components/sections/LegalDocument.tsx";
import { ccpaNotice, ccpaSeo } from "~/content/legal/ccpa.ts";
import { pageMeta } from "~/lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta(ccpaSeo);

export default function CcpaPrivacy() {
  return <LegalDocument content={ccpaNotice} />;
}
