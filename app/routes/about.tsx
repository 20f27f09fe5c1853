import { landingPageRoute } from "~/components/LandingPage.tsx";
import { about } from "~/content/about.ts";

const route = landingPageRoute(about);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
