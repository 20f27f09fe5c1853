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

/**
 * The floors of app/, top to bottom: each imports only from the floors below it, never back up. The entry points
 * (the root route, the server's entry, the route table) and the routes; the composition root (the files that start
 * every server module and hand the HTTP edge what it needs); the server's modules beside the components, which never
 * import each other; the content, as typed data; lib, what browser and server share; config, the settings.
 */
export function floorBoundaries() {
  const entry = ["./app/root.tsx", "./app/entry.server.tsx", "./app/routes.ts", "./app/routes"];
  const compositionRoot = [
    "./app/server/services.server.ts",
    "./app/server/start-server.server.ts",
    "./app/server/load-context.server.ts",
    "./app/server/housekeeping.server.ts",
  ];
  const floors = [
    { floor: "./app/server", above: [...entry, "./app/components"] },
    { floor: "./app/components", above: [...entry, "./app/server"] },
    { floor: "./app/content", above: [...entry, "./app/server", "./app/components"] },
    { floor: "./app/lib", above: [...entry, "./app/server", "./app/components", "./app/content"] },
    { floor: "./app/config", above: [...entry, "./app/server", "./app/components", "./app/content", "./app/lib"] },
  ];
  return [
    ...floors.map(({ floor, above }) => ({
      target: floor,
      from: above,
      message: `Imports run down the floors (docs/ARCHITECTURE.md): ${floor.slice(2)} never imports from a floor above it.`,
    })),
    {
      target: "./app/server/*/**/*",
      from: compositionRoot,
      message: "A server module never imports the composition root: the root hands it what it needs.",
    },
  ];
}
