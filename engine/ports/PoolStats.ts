import { Context } from "effect"

/** The database pool's connections now, for /metrics: provided with a pg pool (Postgres or PGlite served over one). */
export class PoolStats extends Context.Tag("PoolStats")<
  PoolStats,
  { readonly read: () => { readonly total: number; readonly idle: number; readonly waiting: number } }
>() {}
