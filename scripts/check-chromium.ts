import { assertChromiumInstalled } from "../tests/chromium.ts";

try {
  assertChromiumInstalled();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
