import { landingPageRoute } from "~/components/LandingPage.tsx";
import { waterHeaterServices } from "~/content/landing/water-heater-services.ts";

const route = landingPageRoute(waterHeaterServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
