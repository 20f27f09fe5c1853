import { landingPageRoute } from "~/components/LandingPage.tsx";
import { toiletServices } from "~/content/landing/toilet-services.ts";

const route = landingPageRoute(toiletServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
