import { landingPageRoute } from "~/components/LandingPage.tsx";
import { waterSoftenerServices } from "~/content/landing/water-softener-services.ts";

const route = landingPageRoute(waterSoftenerServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
