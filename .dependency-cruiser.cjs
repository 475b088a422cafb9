/**
 * Import rules CI keeps true (`npm run lint`): engine/ is the domain and reaches nothing outside it; no file imports
 * itself through a loop; no two folders import each other (engine/services/bookings and engine/services/payments, or
 * engine/store and engine/services), so a reaction across folders goes one way (a hook, an event).
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
      name: "no-circular",
      comment: "no module imports itself through a loop",
      severity: "error",
      from: { path: "^(engine|transports|adapters)/" },
      to: { circular: true }
    },
    {
      name: "no-folder-cycles",
      comment: "no two folders import each other",
      severity: "error",
      scope: "folder",
      from: { path: "^(engine|transports|adapters)/" },
      to: { circular: true }
    },
    {
      name: "no-dev-dependencies-at-run-time",
      comment: "what the engine runs must not need a devDependency",
      severity: "error",
      from: { path: "^(engine|transports|adapters)/", pathNot: "\\.test\\.ts$" },
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
