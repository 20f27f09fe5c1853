import { landingPageRoute } from "~/components/LandingPage.tsx";
import { wellPumpServices } from "~/content/landing/well-pump-services.ts";

const route = landingPageRoute(wellPumpServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
