import { landingPageRoute } from "~/components/LandingPage.tsx";
import { faucetServices } from "~/content/landing/faucet-services.ts";

const route = landingPageRoute(faucetServices);
export const meta = route.meta;
export const handle = route.handle;
export default route.Component;
