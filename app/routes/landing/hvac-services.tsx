import { landingPageRoute } from "~/components/LandingPage.tsx";
import { hvacServices } from "~/content/landing/hvac-services.ts";

const route = landingPageRoute(hvacServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
