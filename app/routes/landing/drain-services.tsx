import { landingPageRoute } from "~/components/LandingPage.tsx";
import { drainServices } from "~/content/landing/drain-services.ts";

const route = landingPageRoute(drainServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
