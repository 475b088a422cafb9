/**
 * Import rules CI keeps true (`npm run lint`): engine/ is the domain and reaches nothing outside it; transports/ adapt
 * protocols to engine calls and adapters/ implement the engine's ports, neither knowing the other; app/ is the
 * composition root, the one place that knows all three, and nothing imports it but the package's entry points; no
 * file imports itself through a loop; no two folders import each other (engine/services/bookings and
 * engine/services/payments, or engine/store and engine/services), so a reaction across folders goes one way (a hook,
 * an event).
 */
module.exports = {
  forbidden: [
    {
      name: "engine-stays-inside",
      comment: "engine/ never imports transports/ or adapters/ (DESIGN.md: the shape)",
      severity: "error",
      from: { path: "^engine/" },
      to: { path: "^(transports|adapters)/" }
    },
    {
      name: "transports-never-adapters",
      comment: "transports/ reach the engine's ports, never an adapter (app/ wires the adapters in)",
      severity: "error",
      from: { path: "^transports/" },
      to: { path: "^adapters/" }
    },
    {
      name: "adapters-never-services",
      comment: "adapters/ implement engine/ports (and may use the store's rules and schema), never engine/services/",
      severity: "error",
      from: { path: "^adapters/" },
      to: { path: "^engine/services/" }
    },
    {
      name: "adapters-never-transports",
      comment: "adapters/ never import transports/",
      severity: "error",
      from: { path: "^adapters/" },
      to: { path: "^transports/" }
    },
    {
      name: "only-entry-points-import-app",
      comment: "app/ is the composition root: engine/, transports/ and adapters/ never import it",
      severity: "error",
      from: { path: "^(engine|transports|adapters)/" },
      to: { path: "^app/" }
    },
    {
      name: "shared-is-a-leaf",
      comment: "transports/shared/ is what every surface imports; it imports no surface",
      severity: "error",
      from: { path: "^transports/shared/" },
      to: { path: "^transports/", pathNot: "^transports/shared/" }
    },
    {
      name: "surfaces-away-from-http",
      comment: "a surface (pages, octo, oauth, mcp, ...) never imports transports/http/; http/ mounts the surfaces",
      severity: "error",
      from: { path: "^transports/", pathNot: "^transports/http/" },
      to: { path: "^transports/http/" }
    },
    {
      name: "no-circular",
      comment: "no module imports itself through a loop",
      severity: "error",
      from: { path: "^(app|engine|transports|adapters|bench|console|widget|specs)/" },
      to: { circular: true }
    },
    {
      name: "no-folder-cycles",
      comment: "no two folders import each other",
      severity: "error",
      scope: "folder",
      from: { path: "^(app|engine|transports|adapters)/" },
      to: { circular: true }
    },
    {
      name: "no-dev-dependencies-at-run-time",
      comment: "what the engine runs must not need a devDependency",
      severity: "error",
      from: { path: "^(app|engine|transports|adapters)/", pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] }
  }
}
