import { landingPageRoute } from "~/components/LandingPage.tsx";
import { allRepairs } from "~/content/landing/allrepairs.ts";

const route = landingPageRoute(allRepairs);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
