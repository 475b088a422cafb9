/** Builds dist/server.mjs and dist/cli.mjs from the source (esbuild). */
export declare const bundleServer: () => Promise<unknown>
