import { readdirSync } from "node:fs";

/**
 * One zone per server module (a folder under app/server/): code outside the folder may import only the
 * module's public surface, its index.server.ts. The modules are the folders that have one.
 */
export function serverModuleBoundaries() {
  const modules = readdirSync("app/server", { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => readdirSync(`app/server/${name}`).includes("index.server.ts"));
  return modules.map((name) => ({
    target: [
      `./app/server/!(${name})/**/*`,
      "./app/server/*.ts",
      "./app/!(server)/**/*",
      "./app/*.{ts,tsx}",
      "./scripts/**/*",
      "./server.ts",
    ],
    from: `./app/server/${name}`,
    except: ["./index.server.ts"],
    message: `Import the ${name} module through app/server/${name}/index.server.ts.`,
  }));
}
