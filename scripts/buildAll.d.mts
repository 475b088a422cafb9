/** Builds dist (all but dist/types); resolves with the line `npm run build` prints. */
export declare const buildAll: () => Promise<string>
