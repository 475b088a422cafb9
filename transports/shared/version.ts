import pkg from "../../package.json" with { type: "json" }

/** The package's version (package.json), as the MCP servers report it in their initialize answer. */
export const PACKAGE_VERSION: string = pkg.version
