import { about } from "~/content/about.ts";
import { allRepairs } from "~/content/landing/allrepairs.ts";
import { drainServices } from "~/content/landing/drain-services.ts";
import { faucetServices } from "~/content/landing/faucet-services.ts";
import { gasLineServices } from "~/content/landing/gas-line-services.ts";
import { handymanPlumber } from "~/content/landing/handyman-plumber.ts";
import { hvacServices } from "~/content/landing/hvac-services.ts";
import { sewerServices } from "~/content/landing/sewer-services.ts";
import { toiletServices } from "~/content/landing/toilet-services.ts";
import { waterHeaterServices } from "~/content/landing/water-heater-services.ts";
import { waterSoftenerServices } from "~/content/landing/water-softener-services.ts";
import { wellPumpServices } from "~/content/landing/well-pump-services.ts";
import type { LandingPage } from "~/content/types.ts";

/** Every landing page, /about among them: each has its own route module, built by landingPageRoute. */
export const landingPages: LandingPage[] = [
  about,
  allRepairs,
  toiletServices,
  waterHeaterServices,
  drainServices,
  sewerServices,
  wellPumpServices,
  faucetServices,
  gasLineServices,
  waterSoftenerServices,
  handymanPlumber,
  hvacServices,
];
