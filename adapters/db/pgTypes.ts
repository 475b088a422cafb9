import pg from "pg"

const INT8 = 20
const DATE = 1082

// int8 (counts, event ids) as numbers; dates stay YYYY-MM-DD text (never shifted by a zone); timestamps are Dates.
export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8
      ? (v: string) => Number(v)
      : oid === DATE
        ? (v: string) => v
        : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"]
}
