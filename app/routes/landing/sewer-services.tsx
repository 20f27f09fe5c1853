import { landingPageRoute } from "~/components/LandingPage.tsx";
import { sewerServices } from "~/content/landing/sewer-services.ts";

const route = landingPageRoute(sewerServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
