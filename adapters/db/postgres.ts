import { poolLayer } from "./pool.ts"

export const PostgresLive = (url: string, maxConnections = 20) =>
  poolLayer("postgres", { connectionString: url, max: maxConnections, application_name: "booking-engine" })
