import { assertChromiumInstalled } from "../tooling/chromium.ts";

try {
  assertChromiumInstalled();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
