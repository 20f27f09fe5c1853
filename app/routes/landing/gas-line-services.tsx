import { landingPageRoute } from "~/components/LandingPage.tsx";
import { gasLineServices } from "~/content/landing/gas-line-services.ts";

const route = landingPageRoute(gasLineServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
