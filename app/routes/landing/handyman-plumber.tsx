import { landingPageRoute } from "~/components/LandingPage.tsx";
import { handymanPlumber } from "~/content/landing/handyman-plumber.ts";

const route = landingPageRoute(handymanPlumber);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
