import { Data } from "effect"

/**
 * Another process (a running server, or a CLI command) holds the embedded database. Its own module, free of PGlite's
 * types: the package's published declarations name it (booking-engine/layers), and PGlite's name Emscripten's.
 */
export class DataDirInUse extends Data.TaggedError("DataDirInUse")<{ readonly message: string }> {}
