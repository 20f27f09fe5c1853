import type { Route } from "./+types/terms";
import { LegalDocument } from "~/components/sections/LegalDocument.tsx";
import { termsOfUse, termsSeo } from "~/content/legal/terms.ts";
import { pageMeta } from "~/lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta(termsSeo);

export default function Terms() {
  return <LegalDocument content={termsOfUse} />;
}
